import { writeSync } from "node:fs";
const t0 = performance.now();
let h = "";
if (process.env.M === "crypto") { const { createHash } = await import("node:crypto"); h = createHash("sha256").update("/x/y").digest("hex"); }
else if (process.env.M === "bun") { h = new Bun.CryptoHasher("sha256").update("/x/y").digest("hex"); }
else if (process.env.M === "util") { const { parseArgs } = await import("node:util"); parseArgs({ args: ["a", "--x", "1"], options: { x: { type: "string" } }, allowPositionals: true }); }
else if (process.env.M === "cp") { await import("node:child_process"); }
writeSync(2, `${(performance.now() - t0).toFixed(2)}\n`);
