/**
 * What each build option costs: the compiled binary's size (and how much of it is troupe's own,
 * past the runtime it is appended to) beside the start-up of three commands, for the shipped
 * configuration (src/runtime/bun/compile.ts) and variants of it: without bytecode, bytecode for
 * fewer nesting levels, not minified, with an embedded source map, without code splitting.
 * Each command runs once per variant per round, the variants alternating, so load moves them
 * alike; figures are medians of wall time and of the process's CPU (user + system).
 *
 *   bun scripts/bench/binary-size.ts [runs=15]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig } from "../../src/runtime/bun/compile.ts";
import { load, pct, timeProcess, type Timed } from "./floor.ts";

const runs = Number(process.argv[2] ?? 15);
const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

interface Variant {
  name: string;
  change: Partial<Bun.BuildConfig>;
}
const VARIANTS: Variant[] = [
  { name: "shipped: minify, bytecode, splitting", change: {} },
  { name: "no bytecode", change: { bytecode: false } },
  { name: "bytecode depth 1", change: { bytecodeDepth: 1 } },
  { name: "bytecode depth 0", change: { bytecodeDepth: 0 } },
  { name: "not minified", change: { minify: false } },
  { name: "embedded source map", change: { sourcemap: "linked" } },
  { name: "no splitting", change: { splitting: false } },
];
const COMMANDS: { label: string; args: string[] }[] = [
  { label: "--version", args: ["--version"] },
  { label: "--help", args: ["--help"] },
  { label: "daemon status (no daemon)", args: ["daemon", "status"] },
];

const dir = mkdtempSync(join(tmpdir(), "troupe-size-"));
const runtime = statSync(process.execPath).size;
try {
  const built: { v: Variant; path: string; size: number }[] = [];
  for (const v of VARIANTS) {
    const path = join(dir, `troupe-${built.length}`);
    const r = await Bun.build({ ...buildConfig({ entry: "src/main.ts", outfile: path, define: { TROUPE_BUILD_STAMP: '"0"' } }), ...v.change });
    if (!r.success) throw new Error(`${v.name}: ${r.logs.map(String).join("; ")}`);
    built.push({ v, path, size: statSync(path).size });
  }
  // a workspace without a daemon, so `daemon status` answers at once
  const ws = mkdtempSync(join(tmpdir(), "troupe-size-ws-"));
  const env = { ...process.env, TROUPE_WORKSPACE: ws, TROUPE_SOCKET: join(dir, "none.sock") };
  const times = built.map(() => COMMANDS.map((): Timed[] => []));
  for (let i = 0; i < runs + 2; i++) {
    for (const [c, cmd] of COMMANDS.entries()) {
      for (const [b, bin] of built.entries()) {
        const t = await timeProcess([bin.path, ...cmd.args], env);
        if (i >= 2) times[b]![c]!.push(t);
      }
    }
  }
  rmSync(ws, { recursive: true, force: true });
  console.log(`bun ${Bun.version}, runtime ${MB(runtime)}; ${runs} runs each, variants alternating; ${load()} at the end`);
  console.log(`${"variant".padEnd(38)} ${"size".padStart(9)} ${"troupe's".padStart(9)}  ${COMMANDS.map((c) => `${c.label} wall/CPU ms`.padEnd(34)).join("")}`);
  for (const [b, bin] of built.entries()) {
    const cols = COMMANDS.map((_, c) => {
      const ts = times[b]![c]!;
      return `${pct(ts.map((t) => t.wall), 50).toFixed(1)} / ${pct(ts.map((t) => t.cpu), 50).toFixed(1)}`.padEnd(34);
    });
    console.log(`${bin.v.name.padEnd(38)} ${MB(bin.size).padStart(9)} ${MB(bin.size - runtime).padStart(9)}  ${cols.join("")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
