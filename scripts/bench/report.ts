/**
 * Every benchmark, one table per build, and the main figures side by side. Runs first-frame.ts
 * (the compiled dashboard's first frame in tmux beside a compiled Ink hello-world, the floor for any
 * Ink program on Bun), idle.ts, ask.ts, spawn.ts, ingest.ts and dashboard-rss.ts against each
 * build given (TROUPE_BIN for each, one after the other; dashboard.ts, in process, once), and
 * prints figures, the targets and ratios. Floors of the round trip and of a cold process
 * run on the build's own runtime (see floor.ts). ~10 minutes a build; fails on nothing (a bench
 * that breaks shows "n/a" and its error).
 *
 *   npm run build && npm run build:deno
 *   bun scripts/bench/report.ts [--quick] [--bin dist/troupe --bin dist/troupe-deno]
 * --bin BUILD: measure this build (repeatable; default dist/troupe).
 * --quick: shorter windows (idle over 20 s, 100 agents; ingest 20 MB; fewer runs), for a look.
 */
import { readdirSync, statSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { runtime } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";
import { runtimeOf } from "./floor.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const quick = process.argv.includes("--quick");
const RUNS = quick ? 3 : 7;
const bins = process.argv.flatMap((a, i) => (a === "--bin" && process.argv[i + 1] ? [resolve(process.argv[i + 1]!)] : []));
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

function measure(bin: string, b: number): void {
  // --- first frame in tmux: troupe's dashboard and the Ink floor, alternating (first-frame.ts) ------
  {
    const out = bench("first-frame.ts", [String(RUNS)], bin);
    const ink = /Ink hello-world:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
    const dash = /troupe dashboard:\s+([\d.]+) ms .*RSS ([\d.]+) MB/.exec(out);
    const at = (m: RegExpExecArray | null, i: number) => (m ? Number(m[i]) : null);
    const [inkMs, inkRss, dashMs, dashRss] = [at(ink, 1), at(ink, 2), at(dash, 1), at(dash, 2)];
    rows.push({ figure: "dashboard first frame, daemon up, 5 agents (tmux 120x40)", value: fmt(dashMs, "ms", 0), against: `Ink hello-world ${fmt(inkMs, "ms", 0)} · target 100 ms`, ratio: ratio(dashMs, inkMs) });
    keep("dashboard first frame (tmux, 5 agents)", b, fmt(dashMs, "ms", 0));
    keep("dashboard RSS after its first frame", b, fmt(dashRss, "MB", 0));
    rows.push({ figure: "dashboard RSS after its first frame", value: fmt(dashRss, "MB", 0), against: `Ink hello-world ${fmt(inkRss, "MB", 0)} · target 60 MB`, ratio: ratio(dashRss, inkRss) });
  }

  // --- idle ---------------------------------------------------------------------------------
  {
    const many = quick ? 100 : 200;
    const out = bench("idle.ts", ["--json", "--window", quick ? "20" : "60", "--many", String(many)], bin);
    try {
      const scenes = JSON.parse(out.trim().split("\n").pop() ?? "") as { totalCpu: number; windowS: number; processes: { name: string; cpu: number }[] }[];
      const [all, alone] = scenes;
      if (all) {
        const d = all.processes.find((p) => p.name === "daemon")?.cpu ?? null;
        const dash = all.processes.filter((p) => p.name.startsWith("dashboard")).map((p) => p.cpu);
        rows.push({ figure: `idle CPU: daemon + 10 idle agents + 3 dashboards, ${all.windowS} s`, value: fmt(all.totalCpu, "% of a core", 3), against: "target 0.1 % (was ≈ 7 %)", ratio: ratio(all.totalCpu, 0.1) });
        keep("idle CPU: daemon + 10 agents + 3 dashboards", b, fmt(all.totalCpu, "% of a core", 3));
        rows.push({ figure: "  of which the daemon / each dashboard", value: `${fmt(d, "%", 3)} / ${dash.map((c) => c.toFixed(3)).join(", ")} %`, against: "", ratio: "" });
      }
      if (alone) rows.push({ figure: `daemon CPU with ${many} idle agents, ${alone.windowS} s`, value: fmt(alone.totalCpu, "% of a core", 3), against: "target 0.2 % (was 1.7 %)", ratio: ratio(alone.totalCpu, 0.2) });
    } catch {
      notes.push("idle.ts printed no figures");
    }
  }

  // --- ask and spawn: figures beside their floors measured in the same run (see floor.ts) -------------
  {
    const out = bench("ask.ts", quick ? ["300", "30"] : ["1000", "100"], bin);
    const p99 = num(/\(typed client\): median [\d.]+ ms, p99 ([\d.]+) ms/, out);
    const floorMedian = num(/floor: the same 3 requests to a bare \w+ server: median ([\d.]+) ms/, out);
    const answer = num(/cold 'troupe answer' process: median ([\d.]+) ms/, out);
    const version = num(/baseline 'troupe --version' process: median ([\d.]+) ms/, out);
    const hello = num(/floor: \w+ hello-world: median ([\d.]+) ms/, out);
    rows.push({ figure: "API ask → answer round trip, p99", value: fmt(p99, "ms", 2), against: `bare ${runtimeOf(bin)} server median ${fmt(floorMedian, "ms", 2)} · target 1 ms`, ratio: ratio(p99, 1) });
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
  }

  // --- dashboard (in process) and the compiled dashboard's RSS while an agent streams -------------
  {
    // in process (Ink under the running Bun, against the first build's daemon): once
    if (b === 0) {
      const out = bench("dashboard.ts", [], bin);
      const key = num(/keypress → frame, while streaming:\s+p50 [\d.]+ ms, p99 ([\d.]+) ms/, out);
      const fps = num(/frames while streaming:\s+([\d.]+) \/s/, out);
      rows.push({ figure: "keypress → frame while one of 100 agents streams, p99", value: fmt(key, "ms", 1), against: `${fmt(fps, "frames/s", 1)} while streaming`, ratio: "" });
    }
    const rss = bench("dashboard-rss.ts", ["--runs", quick ? "1" : "3"], bin);
    const med = num(/streaming median ([\d.]+) MB/, rss);
    const max = num(/streaming median [\d.]+ MB, max ([\d.]+) MB/, rss);
    rows.push({ figure: "dashboard RSS, 100 agents, one streaming 100k lines at 5k/s", value: `median ${fmt(med, "MB", 0)}, max ${fmt(max, "MB", 0)}`, against: "target 100 MB, flat", ratio: ratio(max, 100) });
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
