/**
 * Every benchmark, one table: the figures of issue 24's table and the others, each beside its floor
 * measured in the same run (or its fixed target) and their ratio. Runs first-frame.ts, idle.ts,
 * ask.ts, spawn.ts, ingest.ts, trickle.ts, frames.ts, dashboard.ts, dashboard-rss.ts and many.ts
 * against the build in dist/ (each as its own process, one after the other, with the bun running
 * this), and prints the table. Takes ~30 minutes (--quick ~10); fails on nothing (a bench that
 * breaks shows "n/a" and its error below the table).
 *
 *   npm run build && npm run bench [-- --quick]
 * (`npm run bench` finds `bun` in node_modules/.bin; `bun scripts/bench/report.ts` needs it on PATH.)
 * --quick: shorter windows and fewer runs and agents (100 instead of 1,000 in many.ts), for a look.
 */
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "../..");
const quick = process.argv.includes("--quick");
const RUNS = quick ? 3 : 7;

interface Row {
  figure: string;
  value: string;
  against: string;
  ratio: string;
}
const rows: Row[] = [];
const notes: string[] = [];

const num = (re: RegExp, text: string): number | null => {
  const m = re.exec(text);
  return m ? Number(m[1]) : null;
};
const fmt = (v: number | null, unit: string, digits = 1) => (v === null ? "n/a" : `${v.toFixed(digits)} ${unit}`);
const ratio = (a: number | null, b: number | null) => (a === null || b === null || b === 0 ? "" : `${(a / b).toFixed(2)}x`);

function bench(script: string, args: string[] = []): string {
  process.stderr.write(`running ${script} ${args.join(" ")}\n`);
  // the bun running this report (node_modules/.bin's under `npm run bench`), whatever PATH says
  const r = Bun.spawnSync([process.execPath, join(ROOT, "scripts", "bench", script), ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const out = r.stdout.toString();
  if (r.exitCode !== 0) notes.push(`${script} exited ${r.exitCode}: ${r.stderr.toString().trim().split("\n").pop()}`);
  return out;
}

// --- first frame in tmux: troupe's dashboard and the Ink floor, alternating (first-frame.ts) ------
{
  const out = bench("first-frame.ts", [String(RUNS)]);
  const ink = /Ink hello-world:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
  const dash = /troupe dashboard:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
  const at = (m: RegExpExecArray | null, i: number) => (m ? Number(m[i]) : null);
  const [inkMs, inkRss, dashMs, dashRss] = [at(ink, 1), at(ink, 2), at(dash, 1), at(dash, 2)];
  rows.push({ figure: "first frame, daemon up, 5 agents (tmux 120x40)", value: fmt(dashMs, "ms", 0), against: `Ink hello-world ${fmt(inkMs, "ms", 0)} · target ≤ 1.5x (ccmanager: not measured here)`, ratio: ratio(dashMs, inkMs) });
  rows.push({ figure: "dashboard RSS after its first frame", value: fmt(dashRss, "MB", 0), against: `Ink hello-world ${fmt(inkRss, "MB", 0)} · target 60 MB`, ratio: ratio(dashRss, inkRss) });
}

// --- idle -------------------------------------------------------------------------------------
{
  const many = quick ? 100 : 200;
  const out = bench("idle.ts", ["--json", "--window", quick ? "20" : "60", "--many", String(many)]);
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
    }
    const settled = scene("settled");
    if (settled) {
      rows.push({ figure: `idle: the same, agents over a minute old, ${settled.windowS} s`, value: fmt(settled.totalCpu, "% of a core", 3), against: "target ≤ 0.1 %", ratio: ratio(settled.totalCpu, 0.1) });
      rows.push({ figure: "  of which the daemon / each dashboard", value: split(settled), against: "", ratio: "" });
    }
    const alone = scene("many");
    if (alone) rows.push({ figure: `daemon CPU with ${many} idle agents, ${alone.windowS} s`, value: fmt(alone.totalCpu, "% of a core", 3), against: "target 0.2 %", ratio: ratio(alone.totalCpu, 0.2) });
  } catch {
    notes.push("idle.ts printed no figures");
  }
}

// --- ask and spawn: figures beside their floors measured in the same run (see floor.ts) -------------
{
  const out = bench("ask.ts", quick ? ["300", "30"] : ["1000", "100"]);
  const p99 = num(/\(typed client\): median [\d.]+ ms, p99 ([\d.]+) ms/, out);
  const storedP99 = num(/floor: a bare Bun.serve doing the same SQLite writes: median [\d.]+ ms, p99 ([\d.]+) ms/, out);
  const answer = num(/cold 'troupe answer' process: median ([\d.]+) ms/, out);
  const version = num(/baseline 'troupe --version' process: median ([\d.]+) ms/, out);
  const hello = num(/floor: compiled Bun hello-world: median ([\d.]+) ms/, out);
  rows.push({ figure: "API ask → answer round trip, p99", value: fmt(p99, "ms", 2), against: `bare Bun.serve doing the same SQLite writes, p99 ${fmt(storedP99, "ms", 2)} · target ≤ 1.5x`, ratio: ratio(p99, storedP99) });
  rows.push({ figure: "cold `troupe answer` process, median", value: fmt(answer, "ms", 1), against: `\`troupe --version\` ${fmt(version, "ms", 1)} · hello ${fmt(hello, "ms", 1)} · target 10 ms`, ratio: ratio(answer, version) });
  const spawn = bench("spawn.ts", quick ? ["30", "5"] : ["100", "20"]);
  const api = num(/API spawn, shell command, no worktree: median ([\d.]+) ms/, spawn);
  const bare = num(/floor: a bare detached sh -c with output to files: median ([\d.]+) ms/, spawn);
  rows.push({ figure: "spawn of a shell-command agent without worktree, median", value: fmt(api, "ms", 1), against: `bare detached sh ${fmt(bare, "ms", 1)} · target 10 ms`, ratio: ratio(api, bare) });
}

// --- ingest: a flood, and many agents each writing a little (trickle.ts) ------------------------
{
  const out = bench("ingest.ts", quick ? ["20", "10"] : ["100", "10"]);
  const mbs = num(/N=10: ingest ([\d.]+) MB\/s/, out);
  const p99 = num(/N=10: .*p99 ([\d.]+) ms/, out);
  const cpu = num(/N=10: .*daemon CPU ([\d.]+) s per 100 MB/, out);
  rows.push({ figure: "ingest, 10 agents flooding", value: fmt(mbs, "MB/s", 1), against: `daemon CPU ${fmt(cpu, "s", 2)} per 100 MB`, ratio: "" });
  rows.push({ figure: "output event latency, 10 agents, p99", value: fmt(p99, "ms", 1), against: "target 50 ms", ratio: ratio(p99, 50) });
  const t = bench("trickle.ts", quick ? ["--window", "20", "--windows", "2"] : []);
  const median = t.slice(t.indexOf("median of"));
  const daemon = num(/ {2}daemon: cpu ([\d.]+) %/, median);
  const floor = num(/floor: \+ sqlite insert: cpu ([\d.]+) %/, median);
  rows.push({ figure: "daemon, 200 agents × 1 line/s", value: fmt(daemon, "% of a core", 2), against: `floor (watch, read, one SQLite insert a line) ${fmt(floor, "%", 2)} · target ≤ 1.5x`, ratio: ratio(daemon, floor) });
}

// --- frames: a tick and one changed agent, Ink patched and as published (frames.ts) --------------
{
  const out = bench("frames.ts", ["--runs", quick ? "2" : "3"]);
  const tick = (v: string) => num(new RegExp(`tick[\\s\\S]*?${v}\\s+([\\d.]+) %`), out);
  const change = (v: string) => num(new RegExp(`one changed agent[\\s\\S]*?${v}\\s+([\\d.]+) ms`), out);
  const p99 = (v: string) => num(new RegExp(`one changed agent[\\s\\S]*?${v}.*p99 ([\\d.]+) ms`), out);
  const [patched, stock] = ["Ink patched \\(as shipped\\)", "Ink as published"];
  rows.push({ figure: "a clock tick, 10 agents under a minute old (ms of CPU a second)", value: fmt(tick(patched), "% of a core", 2), against: `Ink as published ${fmt(tick(stock), "%", 2)}`, ratio: ratio(tick(patched), tick(stock)) });
  rows.push({ figure: "frame of one changed agent, CPU", value: fmt(change(patched), "ms", 1), against: `Ink as published ${fmt(change(stock), "ms", 1)}`, ratio: ratio(change(patched), change(stock)) });
  rows.push({ figure: "one changed agent → frame, p99", value: fmt(p99(patched), "ms", 1), against: `Ink as published ${fmt(p99(stock), "ms", 1)}`, ratio: ratio(p99(patched), p99(stock)) });
}

// --- dashboard (frame harness) and the compiled dashboard's RSS while an agent streams -------------
{
  const out = bench("dashboard.ts", quick ? ["--runs", "2", "--lines", "50000"] : []);
  const floorP99 = num(/floor \(compiled Ink program.*p99 ([\d.]+) ms/, out);
  const key = num(/dashboard, while one agent streams:\s+keypress → frame p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
  const cpu = num(/dashboard CPU while streaming, no keys: ([\d.]+) %/, out);
  rows.push({ figure: "keypress → frame p99, one of 100 agents streaming", value: fmt(key, "ms", 1), against: `compiled Ink program, same-size screen, ${fmt(floorP99, "ms", 1)} · target ≤ 1.5x`, ratio: ratio(key, floorP99) });
  rows.push({ figure: "dashboard CPU while one of 100 agents streams 5k lines/s", value: fmt(cpu, "% of a core", 1), against: "target ≤ 25 %", ratio: ratio(cpu, 25) });
  const rss = bench("dashboard-rss.ts", ["--runs", quick ? "1" : "3"]);
  const med = num(/streaming median ([\d.]+) MB/, rss);
  const max = num(/streaming median [\d.]+ MB, max ([\d.]+) MB/, rss);
  rows.push({ figure: "dashboard RSS, 100 agents, one streaming 100k lines at 5k/s", value: `median ${fmt(med, "MB", 0)}, max ${fmt(max, "MB", 0)}`, against: "target ≤ 100 MB max", ratio: ratio(max, 100) });
}

// --- a thousand agents (many.ts) -----------------------------------------------------------------
{
  const agents = quick ? 100 : 1000;
  const out = bench("many.ts", ["--agents", String(agents), "--runs", quick ? "1" : "3"]);
  const ffRatio = num(/first frame \(compiled, tmux\):.*: ([\d.]+)x time/, out);
  const ffMany = num(/first frame \(compiled, tmux\): \d+ agents ([\d.]+) ms/, out);
  const keyRatio = num(/CPU of one j keypress: .*: ([\d.]+)x/, out);
  const keyMany = num(/CPU of one j keypress: \d+ agents ([\d.]+) ms/, out);
  const p99 = num(/keypress → frame at \d+ agents: p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
  rows.push({ figure: `${agents} agents (10 streaming): first frame`, value: fmt(ffMany, "ms", 0), against: "the 5-agent one, same run · target ≤ 1.5x", ratio: ffRatio === null ? "" : `${ffRatio.toFixed(2)}x` });
  rows.push({ figure: `${agents} agents: CPU of one j keypress`, value: fmt(keyMany, "ms", 2), against: `the same at 10 agents · target ≤ 1.3x; keypress p99 ${fmt(p99, "ms", 1)}`, ratio: keyRatio === null ? "" : `${keyRatio.toFixed(2)}x` });
}

// --- the table ----------------------------------------------------------------------------------
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(`troupe benchmarks · ${new Date().toISOString().slice(0, 10)} · ${cpus().length} cores (${cpu}), load ${loadavg().map((l) => l.toFixed(2)).join(" ")} at the end · bun ${Bun.version}`);
console.log("");
const w = [Math.max(...rows.map((r) => r.figure.length)), Math.max(...rows.map((r) => r.value.length)), Math.max(...rows.map((r) => r.against.length))];
console.log(`| ${"figure".padEnd(w[0]!)} | ${"measured".padEnd(w[1]!)} | ${"against".padEnd(w[2]!)} | ratio |`);
console.log(`|${"-".repeat(w[0]! + 2)}|${"-".repeat(w[1]! + 2)}|${"-".repeat(w[2]! + 2)}|-------|`);
for (const r of rows) console.log(`| ${r.figure.padEnd(w[0]!)} | ${r.value.padEnd(w[1]!)} | ${r.against.padEnd(w[2]!)} | ${r.ratio.padEnd(5)} |`);
for (const n of notes) console.log(`note: ${n}`);
