import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/sandbox.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

// Input no process can be started with: a NUL byte, or more than the kernel takes. It used to
// reach spawn(), answer 500, and leave a failed agent (and a worktree) behind.

const sb = fileSandbox({ daemon: true });

async function call(method: string, path: string, body: unknown) {
  const res = await fetch(`http://troupe${path}`, { method, body: JSON.stringify(body), unix: sb.socket });
  return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
}

async function agentCount(): Promise<number> {
  return (await sb.json<unknown[]>(["ls", "--json"])).length;
}

function worktrees(): string[] {
  return sb.git("worktree", "list", "--porcelain").split("\n").filter((l) => l.startsWith("worktree "));
}

interface AgentJson {
  id: string;
  status: string;
  session: number;
  result: string | null;
}

const NUL = "must not contain a NUL byte (a process's arguments and environment cannot hold one)";
const LONG = "a".repeat(200_000);

describe("a spawn no process could start is a 400 that leaves nothing", () => {
  const cases: { what: string; body: Record<string, unknown>; message: string | RegExp }[] = [
    { what: "NUL in the command", body: { command: "echo a\u0000b" }, message: `command: ${NUL}` },
    { what: "NUL in the prompt", body: { command: "true", prompt: "hi\u0000" }, message: `prompt: ${NUL}` },
    { what: "NUL in an env value", body: { command: "true", env: { FOO: "x\u0000y" } }, message: `env.FOO: ${NUL}` },
    { what: "NUL in an env name", body: { command: "true", env: { "F\u0000O": "x" } }, message: `env.F\\0O: ${NUL}` },
    { what: "a 200 KB command", body: { command: `echo ${LONG}` }, message: /^the command line is too long for the kernel: one argument \(echo a+…\) is 200,006 bytes/ },
    { what: "a 200 KB variable", body: { command: "true", env: { HUGE: LONG } }, message: /^the environment variable HUGE is too long for the kernel/ },
    // refused by the generic provider itself (64 KiB for $TROUPE_PROMPT), or else by the kernel check
    { what: "a 200 KB prompt in $TROUPE_PROMPT", body: { command: "true", prompt: LONG }, message: /^the (prompt|environment variable TROUPE_PROMPT) is too long/ },
  ];
  for (const c of cases) {
    for (const worktree of [true, false]) {
      test(`${c.what}${worktree ? "" : " (no worktree)"}`, async () => {
        const before = await agentCount();
        const r = await call("POST", "/v1/agents", { provider: "generic", worktree, ...c.body });
        expect(r.status).toBe(400);
        expect(r.body.error?.code).toBe("bad_request");
        expect(r.body.error?.message).toMatch(c.message);
        expect(await agentCount()).toBe(before);
        expect(worktrees()).toHaveLength(1);
      });
    }
  }

  test("the CLI shows it as one line, exit 1", async () => {
    writeFileSync(join(sb.dir, "long.md"), LONG);
    const long = await sb.run(["spawn", "--no-worktree", "--command", "true", "--prompt-file", "long.md"]);
    expect(long.code).toBe(1);
    expect(long.stderr).toMatch(/^troupe: the (prompt|environment variable TROUPE_PROMPT) is too long[^\n]*\n$/);
    writeFileSync(join(sb.dir, "nul.md"), "a\u0000b");
    const nul = await sb.run(["spawn", "--no-worktree", "--command", "true", "--prompt-file", "nul.md"]);
    expect(nul.code).toBe(1);
    expect(nul.stderr).toBe(`troupe: prompt: ${NUL}\n`);
  });
});

describe("a resume no process could start is a 400 that leaves the agent as it was", () => {
  test("a 200 KB message, a NUL in an answer", async () => {
    const { id } = await sb.json<{ id: string }>(["spawn", "--no-worktree", "--command", "troupe signal done --result first", "--json"]);
    const find = async () => (await sb.json<AgentJson[]>(["ls", "--json"])).find((x) => x.id === id);
    const done = await waitFor("done", async () => {
      const a = await find();
      return a?.status === "done" ? a : undefined;
    });
    const long = await call("POST", `/v1/agents/${id}/resume`, { message: LONG });
    expect(long.status).toBe(400);
    expect(long.body.error?.message).toMatch(/^the (prompt|environment variable TROUPE_PROMPT) is too long/);
    const nul = await call("POST", `/v1/agents/${id}/resume`, { message: "go\u0000on" });
    expect(nul.status).toBe(400);
    expect(nul.body.error?.message).toBe(`message: ${NUL}`);
    expect(await find()).toMatchObject({ status: "done", session: done.session, result: "first" });
  });
});
