/**
 * The compiled dashboard's first frame in tmux (daemon up, 5 agents, 120x40) beside a compiled
 * Ink hello-world built here: the floor for any Ink program on this runtime. Runs alternate
 * (hello, dashboard, hello, ...) so the load other processes put on the machine weighs on both
 * alike; prints medians, the ratio and the load average. Fails on nothing. Needs tmux.
 *
 *   npm run build && bun scripts/bench/first-frame.ts [runs]     (default 9)
 * TROUPE_BIN=path measures another build of troupe (an older one, to compare).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";

const ROOT = resolve(import.meta.dir, "../..");
const BIN = process.env.TROUPE_BIN ?? join(ROOT, "dist", "troupe");
const RUNS = Number(process.argv[2] ?? 9);

const work = mkdtempSync(join(tmpdir(), "troupe-ff-"));
const runtime = mkdtempSync("/tmp/tr-ff-");
const env = { ...process.env, TROUPE_WORKSPACE: work, TROUPE_SOCKET: join(runtime, "d.sock") } as Record<string, string>;
const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-S", join(runtime, "tmux.sock"), ...args], { env, stdout: "pipe" }).stdout.toString();
const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);
const rssMB = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

/** Time from starting `command` until `text` shows in the pane, and RSS a second later. */
async function once(command: string, text: string): Promise<{ ms: number; rss: number } | null> {
  const t0 = performance.now();
  tmux("new-session", "-d", "-s", "ff", "-x", "120", "-y", "40", command);
  let ms = 0;
  while (performance.now() - t0 < 10_000) {
    if (tmux("capture-pane", "-p", "-t", "ff").includes(text)) {
      ms = performance.now() - t0;
      break;
    }
    await Bun.sleep(2);
  }
  const pid = Number(tmux("display-message", "-p", "-t", "ff", "#{pane_pid}").trim());
  await Bun.sleep(1000);
  const rss = pid ? rssMB(pid) : 0;
  tmux("kill-session", "-t", "ff");
  await Bun.sleep(200);
  return ms ? { ms, rss } : null;
}

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

try {
  const troupe = (args: string[]) => Bun.spawnSync([BIN, ...args], { env, stdout: "ignore", stderr: "ignore" });
  for (let i = 0; i < 5; i++) troupe(["spawn", "--no-worktree", "--name", `a${i}`, "--command", "sleep 100000"]);
  const hello = await buildHello();
  const loadBefore = loadavg()[0]!;
  const ink = { ms: [] as number[], rss: [] as number[] };
  const dash = { ms: [] as number[], rss: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    for (const [into, cmd, text] of [[ink, hello, "hello from ink"], [dash, BIN, "Agents (5)"]] as const) {
      const r = await once(`exec '${cmd}'`, text);
      if (r) {
        into.ms.push(r.ms);
        into.rss.push(r.rss);
      }
    }
  }
  const f = (x: number) => x.toFixed(0);
  console.log(`first frame in tmux 120x40, daemon up, 5 agents; median of ${RUNS} alternating runs; load ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} (1-min avg)`);
  console.log(`  Ink hello-world:   ${f(median(ink.ms))} ms (min ${f(Math.min(...ink.ms))}), RSS ${f(median(ink.rss))} MB`);
  console.log(`  troupe dashboard:  ${f(median(dash.ms))} ms (min ${f(Math.min(...dash.ms))}), RSS ${f(median(dash.rss))} MB`);
  console.log(`  ratio:             ${(median(dash.ms) / median(ink.ms)).toFixed(2)}x time, ${(median(dash.rss) / median(ink.rss)).toFixed(2)}x RSS`);
} finally {
  tmux("kill-server");
  Bun.spawnSync([BIN, "daemon", "stop"], { env, stdout: "ignore", stderr: "ignore" });
  rmSync(work, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
