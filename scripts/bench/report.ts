/**
 * Every benchmark, one table. Runs first-frame.ts (the compiled dashboard's first frame in tmux
 * beside a compiled Ink hello-world, the floor for any Ink program on this runtime), idle.ts,
 * ask.ts, ingest.ts, dashboard.ts and dashboard-rss.ts against the build in dist/ (each as its own
 * process, one after the other), and prints figures, the targets and ratios.
 * Takes ~10 minutes; fails on nothing (a bench that breaks shows "n/a" and its error).
 *
 *   npm run build && bun scripts/bench/report.ts [--quick]
 * --quick: shorter windows (idle over 20 s, 100 agents; ingest 20 MB; fewer runs), for a look.
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
  const r = Bun.spawnSync(["bun", join(ROOT, "scripts", "bench", script), ...args], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
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
  rows.push({ figure: "dashboard first frame, daemon up, 5 agents (tmux 120x40)", value: fmt(dashMs, "ms", 0), against: `Ink hello-world ${fmt(inkMs, "ms", 0)} · target 100 ms`, ratio: ratio(dashMs, inkMs) });
  rows.push({ figure: "dashboard RSS after its first frame", value: fmt(dashRss, "MB", 0), against: `Ink hello-world ${fmt(inkRss, "MB", 0)} · target 60 MB`, ratio: ratio(dashRss, inkRss) });
}

// --- idle ---------------------------------------------------------------------------------
{
  const many = quick ? 100 : 200;
  const out = bench("idle.ts", ["--json", "--window", quick ? "20" : "60", "--many", String(many)]);
  try {
    const scenes = JSON.parse(out.trim().split("\n").pop() ?? "") as { totalCpu: number; windowS: number; processes: { name: string; cpu: number }[] }[];
    const [all, alone] = scenes;
    if (all) {
      const d = all.processes.find((p) => p.name === "daemon")?.cpu ?? null;
      const dash = all.processes.filter((p) => p.name.startsWith("dashboard")).map((p) => p.cpu);
      rows.push({ figure: `idle CPU: daemon + 10 idle agents + 3 dashboards, ${all.windowS} s`, value: fmt(all.totalCpu, "% of a core", 3), against: "target 0.1 % (was ≈ 7 %)", ratio: ratio(all.totalCpu, 0.1) });
      rows.push({ figure: "  of which the daemon / each dashboard", value: `${fmt(d, "%", 3)} / ${dash.map((c) => c.toFixed(3)).join(", ")} %`, against: "", ratio: "" });
    }
    if (alone) rows.push({ figure: `daemon CPU with ${many} idle agents, ${alone.windowS} s`, value: fmt(alone.totalCpu, "% of a core", 3), against: "target 0.2 % (was 1.7 %)", ratio: ratio(alone.totalCpu, 0.2) });
  } catch {
    notes.push("idle.ts printed no figures");
  }
}

// --- ask and spawn: figures beside their floors measured in the same run (see floor.ts) -------------
{
  const out = bench("ask.ts", quick ? ["300", "30"] : ["1000", "100"]);
  const p99 = num(/\(typed client\): median [\d.]+ ms, p99 ([\d.]+) ms/, out);
  const floorMedian = num(/floor: the same 3 requests to a bare Bun.serve: median ([\d.]+) ms/, out);
  const answer = num(/cold 'troupe answer' process: median ([\d.]+) ms/, out);
  const version = num(/baseline 'troupe --version' process: median ([\d.]+) ms/, out);
  const hello = num(/floor: compiled Bun hello-world: median ([\d.]+) ms/, out);
  rows.push({ figure: "API ask → answer round trip, p99", value: fmt(p99, "ms", 2), against: `bare Bun.serve median ${fmt(floorMedian, "ms", 2)} · target 1 ms`, ratio: ratio(p99, 1) });
  rows.push({ figure: "cold `troupe answer` process, median", value: fmt(answer, "ms", 1), against: `\`troupe --version\` ${fmt(version, "ms", 1)} · hello ${fmt(hello, "ms", 1)} · target 10 ms`, ratio: ratio(answer, version) });
  const spawn = bench("spawn.ts", quick ? ["30", "5"] : ["100", "20"]);
  const api = num(/API spawn, shell command, no worktree: median ([\d.]+) ms/, spawn);
  const bare = num(/floor: a bare detached sh -c with output to files: median ([\d.]+) ms/, spawn);
  rows.push({ figure: "spawn of a shell-command agent without worktree, median", value: fmt(api, "ms", 1), against: `bare detached sh ${fmt(bare, "ms", 1)} · target 10 ms`, ratio: ratio(api, bare) });
}

// --- ingest -----------------------------------------------------------------------------------
{
  const out = bench("ingest.ts", quick ? ["20", "10"] : ["100", "10"]);
  const mbs = num(/N=10: ingest ([\d.]+) MB\/s/, out);
  const p99 = num(/N=10: .*p99 ([\d.]+) ms/, out);
  const cpu = num(/N=10: .*daemon CPU ([\d.]+) s per 100 MB/, out);
  rows.push({ figure: "ingest, 10 agents flooding", value: fmt(mbs, "MB/s", 1), against: `daemon CPU ${fmt(cpu, "s", 2)} per 100 MB`, ratio: "" });
  rows.push({ figure: "output event latency, 10 agents, p99", value: fmt(p99, "ms", 1), against: "target 50 ms", ratio: ratio(p99, 50) });
}

// --- dashboard (in process) and the compiled dashboard's RSS while an agent streams -------------
{
  const out = bench("dashboard.ts");
  const key = num(/keypress → frame, while streaming:\s+p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
  const fps = num(/frames while streaming:\s+([\d.]+) \/s/, out);
  rows.push({ figure: "keypress → frame while one of 100 agents streams, p99", value: fmt(key, "ms", 1), against: `${fmt(fps, "frames/s", 1)} while streaming`, ratio: "" });
  const rss = bench("dashboard-rss.ts", ["--runs", quick ? "1" : "3"]);
  const med = num(/streaming median ([\d.]+) MB/, rss);
  const max = num(/streaming median [\d.]+ MB, max ([\d.]+) MB/, rss);
  rows.push({ figure: "dashboard RSS, 100 agents, one streaming 100k lines at 5k/s", value: `median ${fmt(med, "MB", 0)}, max ${fmt(max, "MB", 0)}`, against: "target 100 MB, flat", ratio: ratio(max, 100) });
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
