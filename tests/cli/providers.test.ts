import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
  test("a table: installed or not, version, how to install", async () => {
    const { code, out } = await troupe();
    expect(code).toBe(0);
    const rows = out.trim().split("\n");
    expect(rows[0]).toMatch(/^NAME\s+INSTALLED\s+VERSION\s+INSTALL$/);
    expect(rows.find((r) => r.startsWith("codex"))).toMatch(/^codex\s+yes\s+0\.169\.0$/);
    expect(rows.find((r) => r.startsWith("gemini"))).toMatch(/^gemini\s+no\s+-\s+npm install -g @google\/gemini-cli$/);
    expect(rows).toHaveLength(7);
  });

  test("--json", async () => {
    const { code, out } = await troupe("--json");
    expect(code).toBe(0);
    const list = JSON.parse(out) as Array<{ name: string; installed: boolean; version?: string; install: string; displayName: string }>;
    expect(list.map((p) => p.name)).toEqual(["claude", "codex", "gemini", "aider", "opencode", "generic"]);
    expect(list.find((p) => p.name === "codex")).toMatchObject({ installed: true, version: "0.169.0", path: join(bin, "codex") });
    expect(list.find((p) => p.name === "aider")).toMatchObject({ installed: false, displayName: "Aider" });
  });

  test("an unknown flag is a usage error", async () => {
    const { code, err } = await troupe("--nope");
    expect(code).toBe(2);
    expect(err).toContain("--nope");
  });
});
