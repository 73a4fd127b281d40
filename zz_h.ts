import { writeSync } from "node:fs";
const r: string[] = [];
const mods = (process.env.MODS ?? "").split(",");
for (const m of mods) {
  const t0 = performance.now();
  await import(m);
  r.push(`${m} ${(performance.now() - t0).toFixed(2)}`);
}
writeSync(2, r.join(" | ") + "\n");
