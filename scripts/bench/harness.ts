/**
 * The frame harness (frame-harness.tsx) compiled like troupe, twice: with the dashboard as it ships
 * (Ink patched), and as the floor (Ink as published); and a run of either, as its own process.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { compileBinary } from "../../src/runtime/compile.ts";
import { ROOT, pct } from "./floor.ts";

export interface HarnessFigures {
  mode: "troupe" | "floor";
  firstFrameMs: number;
  latencies: number[];
  cpuPerPress: number;
  cpuIdle: number;
  cpuPresses: number;
  frames: number;
  windowS: number;
  rssMB: number;
  streamed?: number;
}

export interface Harness {
  troupe: string;
  floor: string;
}

/** Builds both harness binaries under dist/bench-frames. */
export async function buildHarness(): Promise<Harness> {
  const dir = join(ROOT, "dist", "bench-frames");
  mkdirSync(dir, { recursive: true });
  const entry = join(import.meta.dir, "frame-harness.tsx");
  const troupe = join(dir, "harness");
  const floor = join(dir, "harness-floor");
  for (const [outfile, stockInk] of [
    [troupe, false],
    [floor, true],
  ] as const) {
    const r = await compileBinary({ entry, outfile, define: {}, stockInk });
    if (!r.ok) throw new Error(`building ${outfile}: ${r.errors.join("; ")}`);
  }
  return { troupe, floor };
}

/** Runs a harness binary to its end; its figures, or an Error with what it said. */
export async function runHarness(bin: string, args: string[], env: Record<string, string | undefined> = process.env): Promise<HarnessFigures> {
  const p = Bun.spawn([bin, ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const line = out.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(line) as HarnessFigures;
  } catch {
    throw new Error(`${bin} ${args.join(" ")} exited ${code}: ${err.trim().split("\n").slice(-3).join(" / ")}`);
  }
}

export const median = (xs: number[]): number => pct(xs, 50);
export const fmt = (v: number, digits = 1): string => (Number.isFinite(v) ? v.toFixed(digits) : "n/a");
