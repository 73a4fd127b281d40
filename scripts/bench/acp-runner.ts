/**
 * What the ACP runner (`troupe acp-run`, src/acp/) costs per running agent, beside what the agent
 * CLI itself costs. N runners are started as the daemon starts them (`acp-run --permissions skip
 * -- AGENT`, the prompt a JSON line on stdin, TROUPE_SESSION_INPUT an input folder with `sent/`),
 * each over the tiny ACP agent of acp-agent.ts (answers, then idles), so each stays between turns
 * waiting for input; once all have ended their first turn and settled:
 *  - PSS (smaps_rollup: pages shared by the N runners counted once in all) of each runner, and of
 *    the small sh that watches its agent (agent-process.ts), at the end of the idle window;
 *  - idle CPU (utime + stime, 10 ms ticks) and wake-ups (context switches) over the window;
 * for each build given (Bun's dist/troupe, Deno's dist/troupe-deno when built), alternating, runs
 * times. Then one real Gemini CLI (`gemini --acp`, node_modules/.bin) under a runner, idle after
 * one turn against the scripted Gemini API (fake-model-servers.ts): its process tree's PSS and
 * idle CPU, the figure the runner's is set beside. Prints figures; fails on nothing.
 *
 *   bun scripts/bench/acp-runner.ts [--agents 10] [--runs 3] [--window 30] [--settle 5]
 *                                   [--bin BUILD ...] [--no-gemini] [--runner-env VAR=value ...]
 * (--runner-env: variables the runners start with besides the agent's, e.g. to try a runtime setting)
 */
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { sleep } from "../../src/runtime/process.ts";
import { startFakeGemini } from "../fake-model-servers.ts";
import { runSync } from "../lib/process.ts";
import { ROOT, load, pct } from "./floor.ts";
import { benchArgs } from "./harness.ts";
import { cmdline, descendants, switchesBetween, totals } from "./proc-stats.ts";

const USAGE = "usage: bun scripts/bench/acp-runner.ts [--agents 10] [--runs 3] [--window 30] [--settle 5] [--bin BUILD ...] [--no-gemini] [--runner-env VAR=value ...]";
const o = benchArgs(USAGE, {
  agents: { type: "string", default: "10" },
  runs: { type: "string", default: "3" },
  window: { type: "string", default: "30" },
  settle: { type: "string", default: "5" },
  bin: { type: "string", multiple: true },
  "no-gemini": { type: "boolean", default: false },
  "runner-env": { type: "string", multiple: true },
});
const RUNNER_ENV = Object.fromEntries((o["runner-env"] ?? []).map((v) => [v.slice(0, v.indexOf("=")), v.slice(v.indexOf("=") + 1)]));
const AGENTS = Number(o.agents);
const RUNS = Number(o.runs);
const WINDOW_S = Number(o.window);
const SETTLE_MS = Number(o.settle) * 1000;
const AGENT = join(import.meta.dirname, "acp-agent.ts");
const bins = o.bin?.length ? o.bin.map((b) => resolve(b)) : [process.env.TROUPE_BIN ?? join(ROOT, "dist", "troupe"), ...[join(ROOT, "dist", "troupe-deno")].filter(existsSync)];

interface Figures {
  /** Per runner, MB: the runner alone, and with its sh watcher. */
  pss: number;
  pssWithSh: number;
  /** Of `pss`, the anonymous pages: the runner's own heap, what one more runner adds whatever the others share. */
  anon: number;
  rss: number;
  /** The agent under each runner (its process tree: PSS and RSS, MB). */
  agentPss: number;
  agentRss: number;
  /** CPU over the window, ms: all runners (and their sh watchers) together. */
  cpuMs: number;
  shCpuMs: number;
  /** CPU over the window of the agents' process trees, ms. */
  agentCpuMs: number;
  /** Wake-ups a second, per runner. */
  wakes: number;
  processes: number;
}

/** One runner: its pid, its session's files. */
interface Session {
  pid: number;
  dir: string;
  exited: Promise<void>;
}

function startRunner(bin: string, root: string, socketDir: string, i: number, argv: string[], extraEnv: Record<string, string>): Session {
  const dir = join(root, `s${i}`);
  mkdirSync(join(dir, "in", "sent"), { recursive: true });
  writeFileSync(join(dir, "prompt.in"), `${JSON.stringify({ text: "Say hello." })}\n`);
  const stdio = [openSync(join(dir, "prompt.in"), "r"), openSync(join(dir, "1.out"), "a"), openSync(join(dir, "1.err"), "a")];
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? root,
    TROUPE_WORKSPACE: root,
    TROUPE_SOCKET: join(socketDir, "d.sock"),
    TROUPE_SESSION_INPUT: join(dir, "in"),
    BENCH_ACP_MODE: "idle",
    BENCH_ACP_RECORD: join(dir, "record.jsonl"),
    ...RUNNER_ENV,
    ...extraEnv,
  };
  const child = spawn(bin, ["acp-run", "--permissions", "skip", ...argv], { cwd: root, env, detached: true, stdio });
  const close = () => stdio.forEach((fd) => closeSync(fd));
  child.once("spawn", close);
  child.once("error", close);
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  return { pid: child.pid!, dir, exited };
}

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const turnEnded = (s: Session) => existsSync(join(s.dir, "1.out")) && readFileSync(join(s.dir, "1.out"), "utf8").includes('{"troupe":"turn"');

/** Ends the sessions as the daemon does (a `close` in the input folder), then their groups when they linger. */
async function endAll(sessions: Session[]): Promise<void> {
  for (const s of sessions) writeFileSync(join(s.dir, "in", "close"), "");
  const all = Promise.all(sessions.map((s) => s.exited));
  if ((await Promise.race([all.then(() => true), sleep(15_000).then(() => false)])) === false) {
    for (const s of sessions) {
      try {
        process.kill(-s.pid, "SIGKILL");
      } catch {}
    }
  }
}

/** The runner's own helpers (the sh watching its agent) and its agent's process tree, told apart by the agent's command line. */
function split(pid: number, agentText: string): { helpers: number[]; agent: number[] } {
  const below = descendants(pid);
  // the sh watcher and its forked subshell carry the agent's argv too: the agent is what they started
  const top = below.filter((p) => cmdline(p).includes(agentText) && !cmdline(p).startsWith("/bin/sh "));
  const agent = new Set(top.flatMap((p) => [p, ...descendants(p)]));
  return { helpers: below.filter((p) => !agent.has(p)), agent: [...agent] };
}

/** N runners over `argv`, idle between turns; their figures over the window. */
async function scene(bin: string, n: number, argv: string[], agentText: string, extraEnv: Record<string, string> = {}, startMs = 60_000): Promise<Figures> {
  const root = mkdtempSync(join(tmpdir(), "troupe-acp-runner-"));
  const socketDir = mkdtempSync("/tmp/tb-");
  runSync(["git", "init", "-q", root]);
  const sessions = Array.from({ length: n }, (_, i) => startRunner(bin, root, socketDir, i, argv, extraEnv));
  try {
    await until("every runner's first turn to end", () => sessions.every(turnEnded), startMs).catch((err: Error) => {
      const late = sessions.find((x) => !turnEnded(x))!;
      const tail = (f: string) => (existsSync(join(late.dir, f)) ? readFileSync(join(late.dir, f), "utf8").trim().split("\n").slice(-3).join(" / ").slice(-600) : "");
      throw new Error(`${err.message}: ${late.dir} stdout ${tail("1.out")} · stderr ${tail("1.err")}`);
    });
    await sleep(SETTLE_MS);
    const parts = sessions.map((s) => ({ runner: s.pid, ...split(s.pid, agentText) }));
    const before = parts.map((p) => ({ runner: totals([p.runner]), helpers: totals(p.helpers), agent: totals(p.agent) }));
    await sleep(WINDOW_S * 1000);
    const after = parts.map((p) => ({ runner: totals([p.runner]), helpers: totals(p.helpers), agent: totals(p.agent) }));
    if (existsSync(join(socketDir, "d.sock"))) process.stderr.write("note: a runner started a daemon\n");
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return {
      pss: mean(after.map((a) => a.runner.pssMB)),
      pssWithSh: mean(after.map((a) => a.runner.pssMB + a.helpers.pssMB)),
      anon: mean(after.map((a) => a.runner.anonMB)),
      rss: mean(after.map((a) => a.runner.rssMB)),
      agentPss: mean(after.map((a) => a.agent.pssMB)),
      agentRss: mean(after.map((a) => a.agent.rssMB)),
      cpuMs: after.reduce((t, a, i) => t + (a.runner.ticks - before[i]!.runner.ticks) * 10, 0),
      shCpuMs: after.reduce((t, a, i) => t + (a.helpers.ticks - before[i]!.helpers.ticks) * 10, 0),
      agentCpuMs: after.reduce((t, a, i) => t + (a.agent.ticks - before[i]!.agent.ticks) * 10, 0),
      wakes: mean(after.map((a, i) => switchesBetween(before[i]!.runner.switches, a.runner.switches) / WINDOW_S)),
      processes: mean(parts.map((p) => p.agent.length)),
    };
  } finally {
    await endAll(sessions);
    rmSync(root, { recursive: true, force: true });
    rmSync(socketDir, { recursive: true, force: true });
  }
}

/** One Gemini CLI under a runner against the scripted Gemini API, idle after its turn. */
async function geminiScene(bin: string): Promise<Figures> {
  const server = await startFakeGemini({ tool: { name: "run_shell_command", args: { command: "true" } }, answer: "Done." });
  const home = mkdtempSync(join(tmpdir(), "troupe-acp-gemini-"));
  try {
    mkdirSync(join(home, "account", ".gemini"), { recursive: true });
    writeFileSync(join(home, "account", ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
    const env = {
      PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? "/usr/bin:/bin"}`,
      HOME: home,
      GEMINI_API_KEY: "test",
      GOOGLE_GEMINI_BASE_URL: server.url,
      GEMINI_CLI_HOME: join(home, "account"),
    };
    return await scene(bin, 1, ["--mode", "yolo", "--", "gemini", "--acp", "--skip-trust"], "gemini", env, 180_000);
  } finally {
    server.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

const mb = (v: number) => `${v.toFixed(1)} MB`;
const med = (xs: number[]) => pct(xs, 50);
const version = (bin: string) => runSync([bin, "--version"]).stdout.trim();
const of = (fs: Figures[], k: keyof Figures) => fs.map((f) => f[k]);
const list = (xs: number[], digits = 1) => xs.map((x) => x.toFixed(digits)).join(", ");

const results = new Map<string, Figures[]>(bins.map((b) => [b, []]));
for (let r = 0; r < RUNS; r++) {
  for (const bin of bins) {
    const f = await scene(bin, AGENTS, ["--", process.execPath, AGENT], AGENT);
    results.get(bin)!.push(f);
    process.stderr.write(`run ${r + 1} ${bin}: PSS ${mb(f.pss)} a runner, CPU ${f.cpuMs} ms over ${WINDOW_S} s · ${load()}\n`);
  }
}

console.log(`ACP runner per running agent: ${AGENTS} runners, each over a tiny ACP agent (acp-agent.ts) idle between turns; medians of ${RUNS} runs, PSS at the end of a ${WINDOW_S} s idle window${o["runner-env"]?.length ? `; runners started with ${o["runner-env"].join(" ")}` : ""} · ${load()}`);
for (const bin of bins) {
  const fs = results.get(bin)!;
  const pss = of(fs, "pss");
  console.log(`  ${relative(ROOT, bin)} (${version(bin)}): PSS per runner ${mb(med(pss))} (runs ${list(pss)}), with its sh watcher ${mb(med(of(fs, "pssWithSh")))}; of it anonymous (its own heap) ${mb(med(of(fs, "anon")))}; RSS ${mb(med(of(fs, "rss")))}`);
  console.log(`    idle CPU of ${AGENTS} runners over ${WINDOW_S} s: ${med(of(fs, "cpuMs")).toFixed(0)} ms (runs ${list(of(fs, "cpuMs"), 0)}), their sh watchers ${med(of(fs, "shCpuMs")).toFixed(0)} ms; wake-ups ${med(of(fs, "wakes")).toFixed(2)}/s per runner`);
  console.log(`    the fake agent under each (a bun script): PSS ${mb(med(of(fs, "agentPss")))}, idle CPU ${med(of(fs, "agentCpuMs")).toFixed(0)} ms in all`);
}
if (!o["no-gemini"]) {
  const g = await geminiScene(bins[0]!);
  const bun = results.get(bins[0]!)!;
  console.log(`  Gemini CLI (gemini --acp, node_modules/.bin, idle after one turn; ${g.processes} processes): PSS ${mb(g.agentPss)}, RSS ${mb(g.agentRss)}; idle CPU over ${WINDOW_S} s ${g.agentCpuMs} ms · ${load()}`);
  console.log(`    its runner (${relative(ROOT, bins[0]!)}, the only one running): PSS ${mb(g.pss)}, idle CPU ${g.cpuMs} ms; a runner among ${AGENTS} / Gemini CLI: ${(med(of(bun, "pss")) / g.agentPss).toFixed(3)}x`);
}
