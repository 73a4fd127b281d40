import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDERS, getProvider } from "../../providers/index.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");
const bin = mkdtempSync(join(tmpdir(), "troupe-cli-providers-"));
afterAll(() => rmSync(bin, { recursive: true, force: true }));
writeFileSync(join(bin, "codex"), "#!/bin/sh\necho 'codex-cli 0.169.0'\n");
chmodSync(join(bin, "codex"), 0o755);

/** `troupe providers` with only the fake codex on PATH; it needs no daemon. */
async function troupe(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, MAIN, "providers", ...args], {
    env: { HOME: bin, PATH: bin },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out, err };
}

describe("troupe providers", () => {
  test("a table: installed or not, version, the version proven with, what each supports, how to install", async () => {
    const { code, out } = await troupe();
    expect(code).toBe(0);
    const rows = out.trim().split("\n");
    expect(rows[0]).toMatch(/^NAME\s+INSTALLED\s+VERSION\s+PROVEN\s+TRANSPORT\s+LIVE INPUT\s+RESUME\s+PERMISSIONS\s+MCP\s+COST\s+PLAN\s+INSTALL$/);
    expect(rows.find((r) => r.startsWith("codex"))).toMatch(new RegExp(`^codex\\s+yes\\s+0\\.169\\.0\\s+${getProvider("codex")!.provenWith!.replace(/\./g, "\\.")}\\s+headless\\s+none\\s+yes\\s+skip,edits,plan\\s+yes\\s+no\\s+no$`));
    expect(rows.find((r) => r.startsWith("claude"))).toMatch(/^claude\s+no\s+-\s+[\d.]+\s+headless\s+mid-turn\s+yes\s+skip,edits,plan,ask\s+yes\s+yes\s+no\s+npm install -g @anthropic-ai\/claude-code$/);
    expect(rows.find((r) => r.startsWith("qwen"))).toMatch(/^qwen\s+no\s+-\s+[\d.]+\s+acp\s+next-turn\s+yes\s+skip,edits,plan,ask\s+yes\s+no\s+no\s+npm install -g @qwen-code\/qwen-code$/);
    expect(rows.find((r) => r.startsWith("copilot"))).toMatch(/^copilot\s+no\s+-\s+[\d.]+\s+acp\s+next-turn\s+yes\s+skip,edits,plan,ask\s+yes\s+no\s+no\s+npm install -g @github\/copilot$/);
    expect(rows.find((r) => r.startsWith("cline"))).toMatch(/^cline\s+no\s+-\s+[\d.]+\s+acp\s+next-turn\s+yes\s+skip,plan,ask\s+yes\s+no\s+no\s+npm install -g cline$/);
    // never run here: it says so
    expect(rows.find((r) => r.startsWith("aider"))).toMatch(/^aider\s+no\s+-\s+untested\s+/);
    expect(rows).toHaveLength(PROVIDERS.length + 1);
  });

  test("--json: each provider with the version it was proven with and what it supports", async () => {
    const { code, out } = await troupe("--json");
    expect(code).toBe(0);
    const list = JSON.parse(out) as Array<{ name: string; installed: boolean; version?: string; install: string; displayName: string; provenWith: string | null }>;
    expect(list.map((p) => p.name)).toEqual(PROVIDERS.map((p) => p.name));
    expect(list.find((p) => p.name === "codex")).toMatchObject({ installed: true, version: "0.169.0", path: join(bin, "codex"), provenWith: getProvider("codex")!.provenWith });
    expect(list.find((p) => p.name === "qwen")).toMatchObject({ installed: false, displayName: "Qwen Code", provenWith: getProvider("qwen")!.provenWith, resume: true, ask: true, mcp: true, cost: false, permissions: ["skip", "edits", "plan", "ask"], transport: "acp", liveInput: "next-turn", plan: false });
    expect(list.find((p) => p.name === "opencode")).toMatchObject({ transport: "acp", plan: true, cost: true });
    expect(list.find((p) => p.name === "copilot")).toMatchObject({ transport: "acp", liveInput: "next-turn", ask: true, mcp: true, cost: false, resume: true, permissions: ["skip", "edits", "plan", "ask"] });
    expect(list.find((p) => p.name === "gemini")).toMatchObject({ transport: "acp", liveInput: "next-turn", ask: true, permissions: ["skip", "edits", "plan", "ask"] });
    expect(list.find((p) => p.name === "aider")).toMatchObject({ installed: false, displayName: "Aider", provenWith: null });
  });

  test("an unknown flag is a usage error", async () => {
    const { code, err } = await troupe("--nope");
    expect(code).toBe(2);
    expect(err).toContain("--nope");
  });
});
