/**
 * The dashboard's mirror asks the daemon only for the output of the agents whose output it has
 * loaded (the events endpoint's `output` filter), and opens its stream again when that set
 * changes. Here, on a real daemon, three agents stream numbered lines while the selection moves
 * between them: every loaded agent ends with every line once, in order, the mirror never shows
 * the daemon as down, and the output of an agent not loaded stops coming. Then a fourth, which
 * streamed all along, is selected: its lines go on arriving.
 *
 * The mirror runs on the runtime of the build under test (output-filter-driver.ts, under Deno for
 * TROUPE_BIN=dist/troupe-deno), with a garbage collection before each move of the selection: on
 * Deno one made the stream's abort reach nothing (src/runtime/deno/abort-body.ts), and the pane
 * lost the newly selected agent's output.
 */
import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { BIN_RUNTIME, ROOT, Sandbox } from "../support/sandbox.ts";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

const LINES = 1500;
const DRIVER = join(ROOT, "tests", "integration", "output-filter-driver.ts");

/** The command that runs the driver on the build's runtime, with gc() exposed (as dist/troupe-deno has it). */
function driverCommand(): string[] {
  if (BIN_RUNTIME === "bun") return [process.execPath, DRIVER];
  const deno = join(ROOT, "node_modules", ".bin", "deno");
  return [deno, "run", "-A", "--quiet", "--no-check", "--unstable-no-legacy-abort", "--v8-flags=--expose-gc", DRIVER];
}

interface DriverResult {
  error?: string;
  lines?: Record<string, string[]>;
  refetches?: number;
  fourLoadedAt?: number;
  oneLoaded?: boolean;
  foreign?: number;
  states: string[];
}

test("switching the selected agent while three stream: no line lost, none doubled, no 'down', and others' output no longer sent", async () => {
  sb = new Sandbox();
  const gate = `${sb.dir}/go`;
  const names = ["one", "two", "three"];
  for (const name of names) {
    const cmd = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=1; while [ $i -le ${LINES} ]; do echo "${name} $i"; i=$((i+1)); [ $((i % 10)) -eq 0 ] && sleep 0.01; done; sleep 60`;
    await sb.json(["spawn", "--no-worktree", "--name", name, "--command", cmd, "--json"]);
  }
  // streams on, slowly, all through: selected last, after a garbage collection
  const slow = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=1; while [ $i -le 3000 ]; do echo "four $i"; i=$((i+1)); sleep 0.02; done; sleep 60`;
  await sb.json(["spawn", "--no-worktree", "--name", "four", "--command", slow, "--json"]);
  const p = Bun.spawn([...driverCommand(), sb.socket, gate, String(LINES)], { cwd: ROOT, env: sb.env, stdout: "pipe", stderr: "pipe" });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  let r: DriverResult;
  try {
    r = JSON.parse(out.trim().split("\n").pop()!) as DriverResult;
  } catch {
    throw new Error(`the driver printed no result (${BIN_RUNTIME}): ${out}${err}`);
  }
  expect(r.error).toBeUndefined();
  for (const n of ["two", "three"]) expect(r.lines![n]).toEqual(Array.from({ length: LINES }, (_, i) => `${n} ${i + 1}`));
  // four's output went on arriving once it was selected: every line from its first, none missing
  const four = r.lines!.four!;
  expect(four.length).toBeGreaterThanOrEqual(r.fourLoadedAt! + 50);
  expect(four).toEqual(Array.from({ length: four.length }, (_, i) => `four ${i + 1}`));
  expect(r.oneLoaded).toBe(false);
  // the stream, opened again at each move, replays from the id it started at, not by fetching the
  // whole state again (29 times before it named that id). Once at most: the first move may end the
  // first stream before its first bytes were read, and the mirror then refetches, as it must.
  expect(r.refetches).toBeLessThanOrEqual(1);
  // "one" streamed on after it was let go: the daemon no longer sent its output
  expect(r.foreign).toBe(0);
  expect(r.states).not.toContain("down");
}, 90_000);
