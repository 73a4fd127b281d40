/**
 * What reading a review costs the daemon on top of the diff it reads anyway: parsing git's text
 * into typed lines (src/git/diff-lines.ts), then finding each pending comment again in them
 * (src/reviews/anchor.ts, through `located`), for a diff of `lines` lines with `comments`
 * comments, a third of which the agent has since moved and a third changed. The baseline,
 * alternating in the same run, is splitting the text into lines (what the diff view did before).
 * Prints medians and p99 over several runs, and the load.
 * Usage: bun scripts/bench/review.ts [lines=20000] [comments=200]
 */
import { loadavg } from "node:os";
import { parseDiff, splitLines } from "../../src/git/diff-lines.ts";
import { anchorAt } from "../../src/reviews/anchor.ts";
import { located } from "../../src/reviews/service.ts";
import type { StoredComment } from "../../src/store/reviews.ts";

const LINES = Number(process.argv[2] ?? 20_000);
const COMMENTS = Number(process.argv[3] ?? 200);
const RUNS = 30;

/** A diff of files of 100 changed lines each, in hunks of 20. */
function diffText(shift: number): string {
  const out: string[] = [];
  for (let f = 0; out.length < LINES; f++) {
    out.push(`diff --git a/src/f${f}.ts b/src/f${f}.ts`, "index 1111111..2222222 100644", `--- a/src/f${f}.ts`, `+++ b/src/f${f}.ts`);
    for (let h = 0; h < 5; h++) {
      out.push(`@@ -${h * 40 + 1},20 +${h * 40 + 1 + shift},20 @@`);
      for (let k = 0; k < 10; k++) out.push(` const keep${f}_${h}_${k} = ${k};`);
      for (let k = 0; k < 10; k++) out.push(`-const old${f}_${h}_${k} = ${k};`, `+const new${f}_${h}_${k} = ${k} + 1;`);
    }
  }
  return `${out.join("\n")}\n`;
}

const before = parseDiff(diffText(0), "committed");
const code = before.map((l, i) => (l.kind === "add" ? i : -1)).filter((i) => i >= 0);
const comments: StoredComment[] = Array.from({ length: COMMENTS }, (_, n) => {
  const a = anchorAt(before, code[Math.floor((n * code.length) / COMMENTS)]!)!;
  return { id: `rc_${n}`, seq: n, agentId: "ag_1", ...a, text: "why?", createdAt: 0, updatedAt: 0 };
});
// the agent's next diff: every hunk two lines lower; a third of the commented lines rewritten
const afterText = diffText(2).replace(/\+const new(\d+)_(\d+)_(\d+) = \3 \+ 1;/g, (m, f, h, k) => (Number(k) % 3 === 0 ? `+const renamed${f}_${h}_${k} = 0;` : m));

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms · p99 ${s[Math.floor(s.length * 0.99)]!.toFixed(2)} ms`;
};
const split: number[] = [];
const parse: number[] = [];
const review: number[] = [];
let states = "";
for (let r = 0; r < RUNS; r++) {
  let t = performance.now();
  splitLines(afterText);
  split.push(performance.now() - t);
  t = performance.now();
  const lines = parseDiff(afterText, "committed");
  parse.push(performance.now() - t);
  t = performance.now();
  const found = comments.map((c) => located(c, lines));
  review.push(performance.now() - t);
  states = ["current", "moved", "changed"].map((s) => `${found.filter((c) => c.state === s).length} ${s}`).join(", ");
}
console.log(`review read: a ${before.length}-line diff, ${COMMENTS} comments (${states}) · load ${loadavg()[0]!.toFixed(1)}`);
console.log(`  split into lines (baseline)  ${stats(split)}`);
console.log(`  parse into typed lines       ${stats(parse)}`);
console.log(`  find ${COMMENTS} comments again     ${stats(review)}`);
