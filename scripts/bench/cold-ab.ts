/**
 * Cold `troupe answer` of two builds, interleaved run by run (A B A B ...), each against a daemon
 * of its own build in its own workspace; also `troupe --version` of each as the process floor.
 * Usage: bun scripts/bench/cold-ab.ts BIN_BEFORE BIN_AFTER [runs=200]   (e.g. a build of main and this tree's dist/troupe)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir, loadavg } from "node:os";
import { timeProcess } from "./floor.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { run } from "../lib/process.ts";

const [binA, binB] = [process.argv[2]!, process.argv[3]!];
const runs = Number(process.argv[4] ?? 200);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function side(bin: string) {
  const dir = mkdtempSync(join(tmpdir(), "troupe-cold-"));
  const rt = mkdtempSync("/tmp/tc-");
  const socket = join(rt, "d.sock");
  const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket } as Record<string, string>;
  return { bin, dir, rt, socket, env, answer: [] as { wall: number; cpu: number }[], version: [] as { wall: number; cpu: number }[] };
}
const sides = [side(binA), side(binB)];
for (const s of sides) await run([s.bin, "daemon", "start"], { env: s.env });
async function ask(s: (typeof sides)[number]): Promise<string> {
  const res = await unixFetch(s.socket, "http://troupe/v1/conversations", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: "q", user: true }) });
  return ((await res.json()) as { conversation: { id: string } }).conversation.id;
}
console.log(`load at start ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
try {
  for (let i = 0; i < runs + 5; i++) {
    for (const s of i % 2 ? [...sides].reverse() : sides) {
      const id = await ask(s);
      const a = await timeProcess([s.bin, "answer", "yes", "--conversation", id], s.env);
      if (a.code !== 0) throw new Error(a.stderr);
      const v = await timeProcess([s.bin, "--version"], s.env);
      if (i < 5) continue;
      s.answer.push(a);
      s.version.push(v);
    }
  }
  for (const [label, s] of [["before", sides[0]!], ["after ", sides[1]!]] as const) {
    const f = (xs: { wall: number; cpu: number }[], k: "wall" | "cpu", p: number) => pct(xs.map((x) => x[k]), p).toFixed(2);
    console.log(`${label} answer: wall median ${f(s.answer, "wall", 50)} ms p90 ${f(s.answer, "wall", 90)}; CPU median ${f(s.answer, "cpu", 50)} ms p90 ${f(s.answer, "cpu", 90)} | --version: wall median ${f(s.version, "wall", 50)}, CPU median ${f(s.version, "cpu", 50)} ms`);
  }
  const med = (s: (typeof sides)[number], k: "answer" | "version") => pct(s[k].map((x) => x.cpu), 50);
  console.log(`answer CPU after/before ${(med(sides[1]!, "answer") / med(sides[0]!, "answer")).toFixed(3)}; (answer - --version) CPU: before ${(med(sides[0]!, "answer") - med(sides[0]!, "version")).toFixed(2)} ms, after ${(med(sides[1]!, "answer") - med(sides[1]!, "version")).toFixed(2)} ms`);
  console.log(`load at end ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
} finally {
  for (const s of sides) {
    await run([s.bin, "daemon", "stop"], { env: s.env });
    rmSync(s.dir, { recursive: true, force: true });
    rmSync(s.rt, { recursive: true, force: true });
  }
}
