/**
 * The compiled dashboard's first frame in tmux (daemon up, 5 agents, 120x40) beside a compiled
 * Ink hello-world built here: the floor for any Ink program on this runtime (also run with the
 * variables the dashboard restarts itself with, dashboardEnv(): the floor given its JIT
 * thresholds). Runs alternate (hello, dashboard, hello, ...) so the load other processes put on
 * the machine weighs on both alike; prints medians, the ratio and the load average. Beside the wall time, the CPU time the
 * process had used when the text showed (all its threads, from /proc/<pid>/task/<tid>/schedstat):
 * on a loaded machine the wall time mostly measures the wait for a core. Fails on nothing. Needs tmux.
 *
 *   npm run build && bun scripts/bench/first-frame.ts [runs]     (default 9)
 * TROUPE_BIN=path measures another build of troupe; TROUPE_BASE_BIN=path measures a second build
 * (say origin/main's) in the same alternation, so both see the same load. `--preset` adds a run
 * of troupe with the runtime's quiet settings already set, so it does not restart itself in place
 * (src/self.ts restartQuiet): the difference is what the restart costs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";
import { dashboardEnv } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";
import { TmuxFrames, median, type FirstFrame as Run } from "./tmux-frame.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = process.env.TROUPE_BIN ?? join(ROOT, "dist", "troupe");
const BASE_BIN = process.env.TROUPE_BASE_BIN;
const ARGS = process.argv.slice(2);
const RUNS = Number(ARGS.find((a) => /^\d+$/.test(a)) ?? 9);
const PRESET = ARGS.includes("--preset");

const runtime = mkdtempSync("/tmp/tr-ff-");
const frames = new TmuxFrames(runtime);

/** A workspace of its own for `bin` (a build talks to a daemon of its own build), its daemon up with 5 agents. */
function workspaceFor(bin: string, n: number) {
  const work = mkdtempSync(join(tmpdir(), "troupe-ff-"));
  const env = { ...process.env, TROUPE_WORKSPACE: work, TROUPE_SOCKET: join(runtime, `d${n}.sock`) } as Record<string, string>;
  const troupe = (args: string[]) => runSync([bin, ...args], { env, stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 5; i++) troupe(["spawn", "--no-worktree", "--name", `a${i}`, "--command", "sleep 100000"]);
  const vars = Object.entries({ TROUPE_WORKSPACE: work, TROUPE_SOCKET: env.TROUPE_SOCKET! }).map(([k, v]) => `${k}='${v}'`).join(" ");
  return {
    command: `${vars} exec '${bin}'`,
    close: () => {
      // agents outlive their daemon by design: stop them first, or each run leaves five sleeps behind
      for (let i = 0; i < 5; i++) troupe(["stop", `a${i}`]);
      troupe(["daemon", "stop"]);
      rmSync(work, { recursive: true, force: true });
    },
  };
}
const once = (command: string, text: string) => frames.firstFrame(command, text);

async function buildHello(): Promise<string> {
  // inside the project, so that "ink" resolves from its node_modules
  const dir = join(ROOT, "dist", "ink-hello");
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, "hello.tsx");
  writeFileSync(entry, `import { render, Text } from "ink";\nrender(<Text>hello from ink</Text>, { alternateScreen: true });\nsetInterval(() => {}, 1 << 30);\n`);
  const out = join(dir, "hello");
  const r = await compileBinary({ entry, outfile: out, define: {} });
  if (!r.ok) throw new Error(`building the Ink hello-world: ${r.errors.join("; ")}`);
  return out;
}

const workspaces: ReturnType<typeof workspaceFor>[] = [];
try {
  const dashWs = workspaceFor(BIN, 0);
  workspaces.push(dashWs);
  const baseWs = BASE_BIN ? workspaceFor(BASE_BIN, 1) : null;
  if (baseWs) workspaces.push(baseWs);
  const hello = await buildHello();
  const loadBefore = loadavg()[0]!;
  const ink: Run[] = [];
  const dash: Run[] = [];
  const base: Run[] = [];
  const preset: Run[] = [];
  const inkTuned: Run[] = [];
  const quiet = Object.entries(dashboardEnv()).map(([k, v]) => `${k}='${v}'`).join(" ");
  const each: [Run[], string, string][] = [
    [ink, `exec '${hello}'`, "hello from ink"],
    // the floor given the variables the dashboard restarts itself with (its JIT thresholds)
    [inkTuned, `${quiet} exec '${hello}'`, "hello from ink"],
    [dash, dashWs.command, "Agents (5)"],
  ];
  if (baseWs) each.push([base, baseWs.command, "Agents (5)"]);
  if (PRESET) each.push([preset, `${quiet} ${dashWs.command}`, "Agents (5)"]);
  for (let i = 0; i < RUNS; i++) {
    for (const [into, cmd, text] of each) {
      const r = await once(cmd, text);
      if (r) into.push(r);
    }
  }
  const f = (x: number) => x.toFixed(0);
  const m = (runs: Run[], k: keyof Run) => median(runs.map((r) => r[k]));
  const line = (runs: Run[]) =>
    `${f(m(runs, "ms"))} ms (min ${f(Math.min(...runs.map((r) => r.ms)))}), CPU ${f(m(runs, "cpu"))} ms, RSS ${f(m(runs, "rss"))} MB`;
  console.log(`first frame in tmux 120x40, daemon up, 5 agents; median of ${RUNS} alternating runs; load ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} (1-min avg)`);
  console.log(`  Ink hello-world:   ${line(ink)}`);
  console.log(`  with the dashboard's variables: ${line(inkTuned)}  (${quiet})`);
  console.log(`  troupe dashboard:  ${line(dash)}`);
  if (BASE_BIN) console.log(`  base dashboard:    ${line(base)}  (${BASE_BIN})`);
  if (PRESET) console.log(`  troupe, no restart: ${line(preset)}  (${quiet} set)`);
  console.log(`  ratio:             ${(m(dash, "ms") / m(ink, "ms")).toFixed(2)}x time, ${(m(dash, "cpu") / m(ink, "cpu")).toFixed(2)}x CPU, ${(m(dash, "rss") / m(ink, "rss")).toFixed(2)}x RSS`);
  console.log(`  against the hello-world with the dashboard's variables: ${(m(dash, "cpu") / m(inkTuned, "cpu")).toFixed(2)}x CPU`);
} finally {
  frames.close();
  for (const ws of workspaces) ws.close();
  rmSync(runtime, { recursive: true, force: true });
}
