/**
 * The runner (`troupe acp-run`, the compiled binary) against an ACP agent that misbehaves
 * (tests/support/fake-acp-agent.ts): each way ends in a named line and an exit status, within the
 * configured time, with what came before kept; what the protocol itself answers (a line that is
 * no JSON, an unknown method, a request for another session) leaves the session going.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, ROOT } from "../support/sandbox.ts";

const AGENT = [join(ROOT, "node_modules", ".bin", "bun"), join(ROOT, "tests", "support", "fake-acp-agent.ts")];

async function run(mode: string): Promise<{ code: number; lines: Record<string, unknown>[] }> {
  const proc = Bun.spawn([BIN, "acp-run", "--permissions", "skip", "--", ...AGENT, mode], {
    cwd: mkdtempSync(join(tmpdir(), "troupe-acp-")),
    env: { ...process.env, TROUPE_ACP_START_MS: "2000", TROUPE_AGENT_TOKEN: "" },
    stdin: new Blob(['{"text":"go"}\n']),
    stdout: "pipe",
    stderr: "ignore",
  });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  return { code, lines: out.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const facts = (lines: Record<string, unknown>[]) => lines.filter((l) => "troupe" in l);
const said = (lines: Record<string, unknown>[]) => JSON.stringify(lines);

describe("an ACP agent that misbehaves", () => {
  test("a well-behaved one, for the baseline: its session, the prompt, its words, the turn", async () => {
    const r = await run("ok");
    expect(r.code).toBe(0);
    expect(facts(r.lines)).toEqual([{ troupe: "session", sessionId: "s1" }, { troupe: "input", text: "go" }, { troupe: "turn", stopReason: "end_turn" }]);
    expect(said(r.lines)).toContain('"text":"hello"');
  });

  test("never answers initialize: failed within the configured time, in one line", async () => {
    const r = await run("silent");
    expect(r.code).toBe(1);
    expect(facts(r.lines)).toEqual([{ troupe: "error", message: expect.stringContaining("did not answer initialize within 2 s") }]);
  });

  test("a message over ACP's 32 MB limit: failed in one line naming it; what came before is kept", async () => {
    const r = await run("huge");
    expect(r.code).toBe(1);
    expect(facts(r.lines).at(-1)).toEqual({ troupe: "error", message: expect.stringContaining("sent a message over 32 MB") });
    expect(facts(r.lines).slice(0, 2)).toEqual([{ troupe: "session", sessionId: "s1" }, { troupe: "input", text: "go" }]);
  });

  test("dies mid-turn: failed with its own exit status, its last words kept", async () => {
    const r = await run("die");
    expect(r.code).toBe(3);
    expect(facts(r.lines).at(-1)).toEqual({ troupe: "error", message: expect.stringContaining("ended (exit 3)") });
    expect(said(r.lines)).toContain('"text":"dying"');
  });

  test("a permission request for another session is refused and said; the session goes on", async () => {
    const r = await run("foreign");
    expect(r.code).toBe(0);
    expect(facts(r.lines)).toContainEqual({ troupe: "denied", toolCallId: "t1", reason: expect.stringContaining("asked for session someone-else") });
    expect(said(r.lines)).toContain("answered with an error");
    expect(facts(r.lines).at(-1)).toEqual({ troupe: "turn", stopReason: "end_turn" });
  });

  test("a line that is no JSON and a method no client has are answered with the protocol's errors; the session goes on", async () => {
    for (const mode of ["garbage", "unknown"]) {
      const r = await run(mode);
      expect(r.code).toBe(0);
      expect(facts(r.lines).at(-1)).toEqual({ troupe: "turn", stopReason: "end_turn" });
    }
  });
});
