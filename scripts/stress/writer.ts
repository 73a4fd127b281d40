/**
 * What each kill9 agent runs: `bun writer.ts INDEX LINES SECONDS`. It writes a deterministic text
 * to stdout (a file the daemon tails) in bursts spread over SECONDS, with shapes that are hard on
 * a tailer: 10 KB lines, lines whose multi-byte UTF-8 characters are split across two writes
 * with a pause between, and a last line with no trailing newline. `expectedOutput` is the same
 * text, for the check; every line is unique (it carries the agent and line number).
 */
import { writeSync } from "node:fs";
import { sleep } from "../../src/runtime/process.ts";

const LONG_EVERY = 97;
const SPLIT_EVERY = 13;
const LONG_BYTES = 10 * 1024;
const MULTI = "é✓中🙂ß€𝄞";

/** Line `k` (1-based) of agent `index`, without its newline. */
export function line(index: number, k: number): string {
  const head = `a${index} k${k} `;
  if (k % LONG_EVERY === 0) return head + "0123456789abcdef".repeat(LONG_BYTES / 16).slice(head.length);
  if (k % SPLIT_EVERY === 0) return `${head}${MULTI.repeat(1 + (k % 5))}`;
  return `${head}plain ascii line`;
}

/** Everything agent `index` writes to stdout: LINES lines, the last one without a newline. */
export function expectedOutput(index: number, lines: number): string {
  const parts: string[] = [];
  for (let k = 1; k <= lines; k++) parts.push(line(index, k));
  return parts.join("\n");
}

/** The result each agent signals, so its status can be checked too. */
export function expectedResult(index: number, lines: number): string {
  return `a${index} wrote ${lines} lines`;
}

async function main(): Promise<void> {
  const [index, lines, seconds] = process.argv.slice(2).map(Number) as [number, number, number];
  const bursts = Math.max(1, Math.round(seconds * 20));
  const perBurst = Math.ceil(lines / bursts);
  const enc = new TextEncoder();
  for (let k = 1; k <= lines; k++) {
    const text = line(index, k) + (k === lines ? "" : "\n");
    const bytes = enc.encode(text);
    if (k % SPLIT_EVERY === 0 && k % LONG_EVERY !== 0) {
      // cut inside a character: the first byte of the 4-byte 🙂 goes out alone
      const cut = bytes.indexOf(0xf0) + 1;
      writeSync(1, bytes.subarray(0, cut));
      await sleep(1);
      writeSync(1, bytes.subarray(cut));
    } else {
      writeSync(1, bytes);
    }
    if (k % perBurst === 0) await sleep(50);
  }
}

if (import.meta.main) await main();
