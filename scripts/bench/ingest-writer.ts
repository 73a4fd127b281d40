/**
 * A fake agent for the ingest benchmark, each line stamped with the wall clock.
 *   ingest-writer.ts flood BYTES        JSONL to stdout as fast as it can
 *   ingest-writer.ts paced MS COUNT     one line every MS milliseconds, COUNT lines
 */
import { writeSync } from "node:fs";

const now = () => performance.timeOrigin + performance.now();
const pad = "x".repeat(180);
const write = (s: string) => {
  let buf = Buffer.from(s);
  while (buf.length) buf = buf.subarray(writeSync(1, buf));
};

if (process.argv[2] === "paced") {
  const every = Number(process.argv[3] ?? 20);
  const count = Number(process.argv[4] ?? 100);
  for (let i = 0; i < count; i++) {
    write(`{"t":${now()},"i":${i},"pad":"${pad}"}\n`);
    await Bun.sleep(every);
  }
} else {
  const total = Number(process.argv[3] ?? 1_000_000);
  let written = 0;
  let i = 0;
  while (written < total) {
    let batch = "";
    const t = now();
    while (batch.length < 32 * 1024) batch += `{"t":${t},"i":${i++},"pad":"${pad}"}\n`;
    write(batch);
    written += batch.length;
  }
}
