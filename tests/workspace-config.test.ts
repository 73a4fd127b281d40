import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readWorkspaceConfig } from "../src/workspace-config.ts";

const base = realpathSync(mkdtempSync(join(tmpdir(), "troupe-wsconfig-")));
afterAll(() => rmSync(base, { recursive: true, force: true }));

test("a .troupe the person linked to another disk is read; a config.json linked out of it is refused", () => {
  const ws = join(base, "ws");
  const state = join(base, "elsewhere", "state");
  mkdirSync(ws);
  mkdirSync(state, { recursive: true });
  symlinkSync(state, join(ws, ".troupe"));
  writeFileSync(join(state, "config.json"), JSON.stringify({ worktree: { keepDays: 3 } }));
  expect(readWorkspaceConfig(join(ws, ".troupe"))).toMatchObject({ worktree: { keepDays: 3 } });

  writeFileSync(join(base, "outside.json"), "{}");
  rmSync(join(state, "config.json"));
  symlinkSync(join(base, "outside.json"), join(state, "config.json"));
  expect(() => readWorkspaceConfig(join(ws, ".troupe"))).toThrow(/config\.json leads outside the workspace/);
});
