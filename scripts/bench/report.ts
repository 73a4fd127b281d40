/**
 * Every benchmark, one table per build, and the main figures side by side: the figures of issue
 * 24's table and the others, each beside its floor measured in the same run (or its fixed target)
 * and their ratio. Runs first-frame.ts, idle.ts, ask.ts, spawn.ts, ingest.ts, trickle.ts, the ACP
 * runner's (acp-runner.ts, acp-permission.ts, acp-next-prompt.ts) and dashboard-rss.ts against
 * each build given (TROUPE_BIN for each, one after the other), and
 * frames.ts, dashboard.ts and many.ts (which build the dashboard themselves) once. Floors of the
 * round trip and of a cold process run on the build's own runtime (see floor.ts). Takes ~30 minutes
 * a build (--quick ~10); fails on nothing (a bench that breaks shows "n/a" and its error below).
 *
 *   npm run build [&& npm run build:deno]
 *   npm run bench [-- --quick] [-- --bin dist/troupe --bin dist/troupe-deno]
 * (`npm run bench` finds `bun` in node_modules/.bin; each bench runs with the bun running this.)
 * --bin BUILD: measure this build (repeatable; default dist/troupe).
 * --quick: shorter windows and fewer runs and agents (100 instead of 1,000 in many.ts), for a look.
 */
import { readdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { runtime } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";
import { runtimeOf } from "./floor.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const USAGE = "usage: npm run bench [-- --quick] [-- --bin BUILD ...]   (every benchmark, ~30 minutes a build; --quick ~10)";
let args;
try {
  args = parseArgs({ options: { quick: { type: "boolean" }, bin: { type: "string", multiple: true }, help: { type: "boolean", short: "h" } } }).values;
} catch (err) {
  process.stderr.write(`report: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
  process.exit(2);
}
if (args.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const quick = args.quick === true;
const RUNS = quick ? 3 : 7;
const bins = (args.bin ?? []).map((b) => resolve(b));
if (bins.length === 0) bins.push(join(ROOT, "dist", "troupe"));

interface Row {
  figure: string;
  value: string;
  against: string;
  ratio: string;
}
let rows: Row[] = [];
const notes: string[] = [];
/** The side-by-side figures: figure → its value for each build. */
const summary = new Map<string, string[]>();
const keep = (figure: string, build: number, value: string) => {
  if (!summary.has(figure)) summary.set(figure, bins.map(() => "n/a"));
  summary.get(figure)![build] = value;
};

const num = (re: RegExp, text: string): number | null => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};
const fmt = (v: number | null, unit: string, digits = 1) => (v === null ? "n/a" : `${v.toFixed(digits)} ${unit}`);
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? "" : `${(a / b).toFixed(2)}x`);

function bench(script: string, args: string[], bin: string): string {
  process.stderr.write(`running ${script} ${args.join(" ")} (${bin})\n`);
  const r = runSync([process.execPath, join(ROOT, "scripts", "bench", script), ...args], { cwd: ROOT, env: { ...process.env, TROUPE_BIN: bin } });
  if (r.exitCode !== 0) notes.push(`${script} (${bin}) exited ${r.exitCode}: ${r.stderr.trim().split("\n").pop()}`);
  return r.stdout;
}

/** What a build takes on disk: the executable, or a launcher with the bundle it runs (and the Deno it runs it with, not counted). */
function sizeOf(bin: string): { mb: number; what: string } {
  const size = statSync(bin).size;
  const bundle = join(dirname(bin), "deno");
  if (size > 64 * 1024) return { mb: size / 1e6, what: "one executable" };
  const files = readdirSync(bundle).map((f) => statSync(join(bundle, f)).size);
  return { mb: (size + files.reduce((a, b) => a + b, 0)) / 1e6, what: `launcher + bundle (${files.length} files); the deno it runs is apart` };
}

/** The dashboard's own frames: a tick and one changed agent (Ink patched and as published), keys while one streams, a thousand agents. */
function measureFrames(bin: string): void {
  {
    const out = bench("frames.ts", ["--runs", quick ? "2" : "3"], bin);
    const tick = (v: string) => num(new RegExp(`tick[\\s\\S]*?${v}\\s+([\\d.]+) %`), out);
    const change = (v: string) => num(new RegExp(`one changed agent[\\s\\S]*?${v}\\s+([\\d.]+) ms`), out);
    const p99 = (v: string) => num(new RegExp(`one changed agent[\\s\\S]*?${v}.*p99 ([\\d.]+) ms`), out);
    const [patched, stock] = ["Ink patched \\(as shipped\\)", "Ink as published"];
    rows.push({ figure: "a clock tick, 10 agents under a minute old (ms of CPU a second)", value: fmt(tick(patched), "% of a core", 2), against: `Ink as published ${fmt(tick(stock), "%", 2)}`, ratio: ratio(tick(patched), tick(stock)) });
    rows.push({ figure: "frame of one changed agent, CPU", value: fmt(change(patched), "ms", 1), against: `Ink as published ${fmt(change(stock), "ms", 1)}`, ratio: ratio(change(patched), change(stock)) });
    rows.push({ figure: "one changed agent → frame, p99", value: fmt(p99(patched), "ms", 1), against: `Ink as published ${fmt(p99(stock), "ms", 1)}`, ratio: ratio(p99(patched), p99(stock)) });
  }
  {
    const out = bench("dashboard.ts", quick ? ["--runs", "2", "--lines", "50000"] : [], bin);
    const floorP99 = num(/floor \(compiled Ink program.*p99 ([\d.]+) ms/, out);
    const key = num(/dashboard, while one agent streams:\s+keypress → frame p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
    const cpu = num(/dashboard CPU while streaming, no keys: ([\d.]+) %/, out);
    rows.push({ figure: "keypress → frame p99, one of 100 agents streaming", value: fmt(key, "ms", 1), against: `compiled Ink program, same-size screen, ${fmt(floorP99, "ms", 1)} · target ≤ 1.5x`, ratio: ratio(key, floorP99) });
    rows.push({ figure: "dashboard CPU while one of 100 agents streams 5k lines/s", value: fmt(cpu, "% of a core", 1), against: "target ≤ 25 %", ratio: ratio(cpu, 25) });
  }
  {
    const agents = quick ? 100 : 1000;
    const out = bench("many.ts", ["--agents", String(agents), "--runs", quick ? "1" : "3"], bin);
    const ffRatio = num(/first frame \(compiled, tmux\):.*: ([\d.]+)x time/, out);
    const ffMany = num(/first frame \(compiled, tmux\): \d+ agents ([\d.]+) ms/, out);
    const keyRatio = num(/CPU of one j keypress: .*: ([\d.]+)x/, out);
    const keyMany = num(/CPU of one j keypress: \d+ agents ([\d.]+) ms/, out);
    const p99 = num(/keypress → frame at \d+ agents: p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
    rows.push({ figure: `${agents} agents (10 streaming): first frame`, value: fmt(ffMany, "ms", 0), against: "the 5-agent one, same run · target ≤ 1.5x", ratio: ffRatio === null ? "" : `${ffRatio.toFixed(2)}x` });
    rows.push({ figure: `${agents} agents: CPU of one j keypress`, value: fmt(keyMany, "ms", 2), against: `the same at 10 agents · target ≤ 1.3x; keypress p99 ${fmt(p99, "ms", 1)}`, ratio: keyRatio === null ? "" : `${keyRatio.toFixed(2)}x` });
  }
}

/** The ACP runner (acp-runner.ts, acp-permission.ts, acp-next-prompt.ts); Gemini CLI's own figure with the first build only. */
function measureAcp(bin: string, b: number): void {
  {
    const window = quick ? "10" : "30";
    const out = bench("acp-runner.ts", ["--bin", bin, "--runs", quick ? "1" : "3", "--window", window, ...(b === 0 ? [] : ["--no-gemini"])], bin);
    const pss = num(/PSS per runner ([\d.]+) MB/, out);
    const cpu = num(/idle CPU of \d+ runners over \d+ s: ([\d.]+) ms/, out);
    const gemini = num(/Gemini CLI .*PSS ([\d.]+) MB/, out);
    const target = runtimeOf(bin) === "deno" ? 40 : 20;
    rows.push({ figure: "ACP runner PSS per running agent (10 running)", value: fmt(pss, "MB", 1), against: `Gemini CLI's own ${fmt(gemini, "MB", 0)} · target ≤ ${target} MB`, ratio: ratio(pss, gemini) });
    rows.push({ figure: `ACP runner idle CPU, 10 runners over ${window} s`, value: fmt(cpu, "ms", 0), against: "target 0", ratio: "" });
    keep("ACP runner PSS per running agent", b, fmt(pss, "MB", 1));
  }
  {
    const out = bench("acp-permission.ts", quick ? ["--asks", "100", "--runs", "1"] : [], bin);
    const leg = (what: string) => new RegExp(`${what}: median ([\\d.]+) ms, p99 ([\\d.]+) ms.*; [\\d.]+x the floor's median ([\\d.]+) ms`).exec(out);
    for (const [what, label] of [["request → visible on the event stream", "ACP permission: agent's request → visible in the API"], ["decide → agent has the response", "ACP permission: person's decide → agent answered"]] as const) {
      const m = leg(what);
      const [med, p99, floor] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [null, null, null];
      rows.push({ figure: `${label}, median`, value: `${fmt(med, "ms", 2)} (p99 ${fmt(p99, "ms", 1)})`, against: `one POST to a bare server ${fmt(floor, "ms", 2)} · target ≤ 2x, p99 ≤ 50 ms`, ratio: ratio(med, floor) });
    }
  }
  {
    const out = bench("acp-next-prompt.ts", quick ? ["--turns", "100", "--runs", "1"] : [], bin);
    const p99 = num(/turn end → next session\/prompt at the agent: median [\d.]+ ms, p99 ([\d.]+) ms/, out);
    rows.push({ figure: "ACP: a message sent mid-turn, turn end → next prompt, p99", value: fmt(p99, "ms", 1), against: "target ≤ 50 ms", ratio: ratio(p99, 50) });
  }
}

function measure(bin: string, b: number): void {
  // --- first frame in tmux: troupe's dashboard and the Ink floor, alternating (first-frame.ts) ------
  {
    const out = bench("first-frame.ts", [String(RUNS)], bin);
    const ink = /Ink hello-world:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
    const dash = /troupe dashboard:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
    const at = (m: RegExpExecArray | null, i: number) => (m ? Number(m[i]) : null);
    const [inkMs, inkRss, dashMs, dashRss] = [at(ink, 1), at(ink, 2), at(dash, 1), at(dash, 2)];
    rows.push({ figure: "first frame, daemon up, 5 agents (tmux 120x40)", value: fmt(dashMs, "ms", 0), against: `Ink hello-world ${fmt(inkMs, "ms", 0)} · target ≤ 1.5x (ccmanager: not measured here)`, ratio: ratio(dashMs, inkMs) });
    keep("dashboard first frame (tmux, 5 agents)", b, fmt(dashMs, "ms", 0));
    keep("dashboard RSS after its first frame", b, fmt(dashRss, "MB", 0));
    rows.push({ figure: "dashboard RSS after its first frame", value: fmt(dashRss, "MB", 0), against: `Ink hello-world ${fmt(inkRss, "MB", 0)} · target 60 MB`, ratio: ratio(dashRss, inkRss) });
  }

  // --- idle ---------------------------------------------------------------------------------
  {
    const many = quick ? 100 : 200;
    const out = bench("idle.ts", ["--json", "--window", quick ? "20" : "60", "--many", String(many)], bin);
    try {
      const scenes = JSON.parse(out.trim().split("\n").pop() ?? "") as { scene: string; totalCpu: number; windowS: number; processes: { name: string; cpu: number }[] }[];
      const scene = (name: string) => scenes.find((s) => s.scene.startsWith(`${name}:`));
      const split = (s: (typeof scenes)[number]) => {
        const d = s.processes.find((p) => p.name === "daemon")?.cpu ?? null;
        const dash = s.processes.filter((p) => p.name.startsWith("dashboard")).map((p) => p.cpu);
        return `${fmt(d, "%", 3)} / ${dash.map((c) => c.toFixed(3)).join(", ")} %`;
      };
      const young = scene("young");
      if (young) {
        rows.push({ figure: `idle: daemon + 10 agents under a minute old + 3 dashboards, ${young.windowS} s`, value: fmt(young.totalCpu, "% of a core", 3), against: "target ≤ 0.4 % (was 7.3 %)", ratio: ratio(young.totalCpu, 0.4) });
        rows.push({ figure: "  of which the daemon / each dashboard", value: split(young), against: "", ratio: "" });
        keep("idle CPU: daemon + 10 young agents + 3 dashboards", b, fmt(young.totalCpu, "% of a core", 3));
      }
      const settled = scene("settled");
      if (settled) {
        rows.push({ figure: `idle: the same, agents over a minute old, ${settled.windowS} s`, value: fmt(settled.totalCpu, "% of a core", 3), against: "target ≤ 0.1 %", ratio: ratio(settled.totalCpu, 0.1) });
        rows.push({ figure: "  of which the daemon / each dashboard", value: split(settled), against: "", ratio: "" });
        keep("idle CPU: the same, agents over a minute old", b, fmt(settled.totalCpu, "% of a core", 3));
      }
      const alone = scene("many");
      if (alone) rows.push({ figure: `daemon CPU with ${many} idle agents, ${alone.windowS} s`, value: fmt(alone.totalCpu, "% of a core", 3), against: "target 0.2 %", ratio: ratio(alone.totalCpu, 0.2) });
    } catch {
      notes.push("idle.ts printed no figures");
    }
  }

  // --- ask and spawn: figures beside their floors measured in the same run (see floor.ts) -------------
  {
    const out = bench("ask.ts", quick ? ["300", "30"] : ["1000", "100"], bin);
    const p99 = num(/\(typed client\): median [\d.]+ ms, p99 ([\d.]+) ms/, out);
    const storedP99 = num(/floor: a bare \w+ server doing the same SQLite writes: median [\d.]+ ms, p99 ([\d.]+) ms/, out);
    const answer = num(/cold 'troupe answer' process: median ([\d.]+) ms/, out);
    const version = num(/baseline 'troupe --version' process: median ([\d.]+) ms/, out);
    const hello = num(/floor: \w+ hello-world: median ([\d.]+) ms/, out);
    rows.push({ figure: "API ask → answer round trip, p99", value: fmt(p99, "ms", 2), against: `bare ${runtimeOf(bin)} server doing the same SQLite writes, p99 ${fmt(storedP99, "ms", 2)} · target ≤ 1.5x`, ratio: ratio(p99, storedP99) });
    keep("ask → answer round trip, p99", b, fmt(p99, "ms", 2));
    keep("cold `troupe answer` process, median", b, fmt(answer, "ms", 1));
    rows.push({ figure: "cold `troupe answer` process, median", value: fmt(answer, "ms", 1), against: `\`troupe --version\` ${fmt(version, "ms", 1)} · hello ${fmt(hello, "ms", 1)} · target 10 ms`, ratio: ratio(answer, version) });
    const spawn = bench("spawn.ts", quick ? ["30", "5"] : ["100", "20"], bin);
    const api = num(/API spawn, shell command, no worktree: median ([\d.]+) ms/, spawn);
    const bare = num(/floor: a bare detached sh -c with output to files: median ([\d.]+) ms/, spawn);
    rows.push({ figure: "spawn of a shell-command agent without worktree, median", value: fmt(api, "ms", 1), against: `bare detached sh ${fmt(bare, "ms", 1)} · target 10 ms`, ratio: ratio(api, bare) });
  }

  // --- ingest -----------------------------------------------------------------------------------
  {
    const out = bench("ingest.ts", quick ? ["20", "10"] : ["100", "10"], bin);
    const mbs = num(/N=10: ingest ([\d.]+) MB\/s/, out);
    const p99 = num(/N=10: .*p99 ([\d.]+) ms/, out);
    const cpu = num(/N=10: .*daemon CPU ([\d.]+) s per 100 MB/, out);
    rows.push({ figure: "ingest, 10 agents flooding", value: fmt(mbs, "MB/s", 1), against: `daemon CPU ${fmt(cpu, "s", 2)} per 100 MB`, ratio: "" });
    keep("ingest, 10 agents flooding", b, fmt(mbs, "MB/s", 1));
    rows.push({ figure: "output event latency, 10 agents, p99", value: fmt(p99, "ms", 1), against: "target 50 ms", ratio: ratio(p99, 50) });
    const t = bench("trickle.ts", quick ? ["--window", "20", "--windows", "2"] : [], bin);
    const median = t.slice(t.indexOf("median of"));
    const daemon = num(/ {2}daemon: cpu ([\d.]+) %/, median);
    const floor = num(/floor: \+ sqlite insert: cpu ([\d.]+) %/, median);
    rows.push({ figure: "daemon, 200 agents × 1 line/s", value: fmt(daemon, "% of a core", 2), against: `floor (watch, read, one SQLite insert a line) ${fmt(floor, "%", 2)} · target ≤ 1.5x`, ratio: ratio(daemon, floor) });
  }

  // --- the ACP runner: its cost per running agent, a permission's round trip, the next prompt -----------
  measureAcp(bin, b);

  // --- dashboard (in process) and the compiled dashboard's RSS while an agent streams -------------
  {
    // the frame harness builds the dashboard itself (Bun): once, against the first build's daemon
    if (b === 0) measureFrames(bin);
    const rss = bench("dashboard-rss.ts", ["--runs", quick ? "1" : "3"], bin);
    const med = num(/streaming median ([\d.]+) MB/, rss);
    const max = num(/streaming median [\d.]+ MB, max ([\d.]+) MB/, rss);
    rows.push({ figure: "dashboard RSS, 100 agents, one streaming 100k lines at 5k/s", value: `median ${fmt(med, "MB", 0)}, max ${fmt(max, "MB", 0)}`, against: "target ≤ 100 MB max", ratio: ratio(max, 100) });
    keep("dashboard RSS, 100 agents, one streaming", b, fmt(max, "MB", 0));
  }

  // --- size on disk -------------------------------------------------------------------------------
  {
    const { mb, what } = sizeOf(bin);
    rows.push({ figure: "size on disk", value: fmt(mb, "MB", 1), against: what, ratio: "" });
    keep("size on disk", b, `${fmt(mb, "MB", 1)}${what === "one executable" ? "" : " + deno"}`);
  }
}

// --- the tables ---------------------------------------------------------------------------------
const cpu = cpus()[0]?.model ?? "unknown CPU";
const date = new Date().toISOString().slice(0, 10);
const table = (head: string[], body: string[][]) => {
  const w = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const fmtRow = (r: string[]) => `| ${r.map((c, i) => c.padEnd(w[i]!)).join(" | ")} |`;
  console.log(fmtRow(head));
  console.log(`|${w.map((n) => "-".repeat(n + 2)).join("|")}|`);
  for (const r of body) console.log(fmtRow(r));
};
const names: string[] = [];
bins.forEach((bin, b) => {
  rows = [];
  measure(bin, b);
  const rt = runSync([bin, "--version"]).stdout.trim();
  names.push(`${bin.slice(ROOT.length + 1)} (${rt.replace(/^troupe \S+ \(|\)$/g, "")})`);
  console.log(`troupe benchmarks · ${bin.slice(ROOT.length + 1)}: ${rt} · ${date} · ${cpus().length} cores (${cpu}), load ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end · run by ${runtime.name} ${runtime.version}`);
  console.log("");
  table(["figure", "measured", "against", "ratio"], rows.map((r) => [r.figure, r.value, r.against, r.ratio]));
  console.log("");
});
if (bins.length > 1) {
  console.log(`side by side · ${date} · load ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end`);
  console.log("");
  table(["figure", ...names], [...summary].map(([figure, values]) => [figure, ...values]));
}
for (const n of notes) console.log(`note: ${n}`);
