import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BIN } from "../support/sandbox.ts";

const dir = realpathSync(mkdtempSync(join(tmpdir(), "troupe-dotenv-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// The compiled binary runs in the user's repository: that project's .env is not troupe's.
test("a .env in the current folder is not loaded into troupe (nor, through it, into every agent it spawns)", () => {
  Bun.spawnSync(["git", "init", "-q", dir]);
  writeFileSync(join(dir, ".env"), `TROUPE_WORKSPACE=${join(dir, "elsewhere")}\nTROUPE_SOCKET=${join(dir, "other.sock")}\n`);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TROUPE_")) env[k] = v;
  const r = Bun.spawnSync([BIN, "daemon", "status"], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  expect(r.stdout.toString()).toBe(`no daemon serves ${dir}\n`);
});
