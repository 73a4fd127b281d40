import { expect, test } from "bun:test";
import { join } from "node:path";

const FIXTURE = join(import.meta.dir, "fixtures/self/restart-quiet.ts");

function run(env: Record<string, string | undefined>): { pid: number; reported: Record<string, unknown> } {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter((e): e is [string, string] => e[1] !== undefined));
  const r = Bun.spawnSync([process.execPath, FIXTURE, "--workspace", "a b"], { env: clean, stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  return { pid: r.pid, reported: JSON.parse(r.stdout.toString()) as Record<string, unknown> };
}

test("restartQuiet starts the process again in place with the quiet settings, and hands on the person's environment", () => {
  const { pid, reported } = run({ BUN_GC_TIMER_DISABLE: undefined, TROUPE_QUIET_ADDED: undefined });
  expect(reported).toEqual({
    pid, // the same process: a terminal's job control and a parent's wait see no difference
    args: ["--workspace", "a b"],
    started: ["BUN_GC_TIMER_DISABLE=1"],
    own: null,
    child: "unset unset",
  });
});

test("restartQuiet leaves a variable the person set alone and does not restart for it", () => {
  const { pid, reported } = run({ BUN_GC_TIMER_DISABLE: "0", TROUPE_QUIET_ADDED: undefined });
  expect(reported).toEqual({ pid, args: ["--workspace", "a b"], started: ["BUN_GC_TIMER_DISABLE=0"], own: "0", child: "0 unset" });
});
