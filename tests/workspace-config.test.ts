import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { portsConfig, readWorkspaceConfig } from "../src/workspace-config.ts";

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

test("ports: per defaults to 1, none without the key, a bad range is one line naming the field", () => {
  const state = join(base, "ports");
  mkdirSync(state);
  const path = join(state, "config.json");
  expect(portsConfig(state)).toBeNull();
  writeFileSync(path, JSON.stringify({ ports: { from: 3000, to: 3019 } }));
  expect(portsConfig(state)).toEqual({ from: 3000, to: 3019, per: 1 });
  for (const [ports, why] of [
    [{ from: 3010, to: 3000 }, "ports.to: 3000 is below ports.from (3010)"],
    [{ from: 3000, to: 3001, per: 3 }, "ports.per: 3 is more than ports 3000-3001 hold"],
    [{ from: 0, to: 10 }, "ports.from: Too small: expected number to be >=1"],
  ] as const) {
    writeFileSync(path, JSON.stringify({ ports }));
    expect(() => portsConfig(state)).toThrow(`${path}: ${why}`);
  }
});
