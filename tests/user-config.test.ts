import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { userConfigReader } from "../src/user-config.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("the cached user config follows every edit, a quick one of the same size included, and a broken file", async () => {
  const home = mkdtempSync(join(tmpdir(), "troupe-ucfg-"));
  dirs.push(home);
  mkdirSync(join(home, "troupe"));
  const file = join(home, "troupe", "config.json");
  const read = userConfigReader({ XDG_CONFIG_HOME: home });
  expect(read()).toEqual({});
  const cfg = (cmd: string) => JSON.stringify({ notify: { command: cmd } });
  writeFileSync(file, cfg("aaa"));
  expect(read().notify?.command).toBe("aaa");
  await sleep(1_100); // no longer changed lately: from here an unchanged file is not read again
  expect(read().notify?.command).toBe("aaa");
  writeFileSync(file, cfg("bbb")); // the same size, at once
  expect(read().notify?.command).toBe("bbb");
  await sleep(1_100);
  expect(read().notify?.command).toBe("bbb");
  writeFileSync(file, "{ not json");
  expect(() => read()).toThrow("not valid JSON");
  expect(() => read()).toThrow("not valid JSON");
  rmSync(file);
  expect(read()).toEqual({});
});
