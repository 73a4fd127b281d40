import { expect, test } from "bun:test";
import { join } from "node:path";
import { dashboardEnv } from "../src/runtime/process.ts";

const FIXTURE = join(import.meta.dir, "fixtures/self/restart-quiet.ts");
const QUIET = Object.entries(dashboardEnv()).map(([k, v]) => `${k}=${v}`).sort();
const UNSET = Object.fromEntries([...Object.keys(dashboardEnv()), "TROUPE_QUIET_ADDED"].map((k) => [k, undefined]));

function run(env: Record<string, string | undefined>): { pid: number; reported: Record<string, unknown> } {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
  const r = Bun.spawnSync([process.execPath, FIXTURE, "--workspace", "a b"], { env: clean, stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  return { pid: r.pid, reported: JSON.parse(r.stdout.toString()) as Record<string, unknown> };
}

test("restartQuiet starts the process again in place with the quiet settings, and hands on the person's environment", () => {
  expect(QUIET.length).toBeGreaterThan(0);
  const { pid, reported } = run(UNSET);
  // the same process (a terminal's job control and a parent's wait see no difference), its arguments kept
  expect(reported).toEqual({ pid, args: ["--workspace", "a b"], started: QUIET, own: [], child: [] });
});

test("restartQuiet leaves variables the person set alone and does not restart for them", () => {
  const mine = Object.fromEntries(Object.keys(dashboardEnv()).map((k) => [k, "7"]));
  const set = Object.keys(mine).map((k) => `${k}=7`).sort();
  const { pid, reported } = run({ ...UNSET, ...mine });
  expect(reported).toEqual({ pid, args: ["--workspace", "a b"], started: set, own: set, child: set });
});
