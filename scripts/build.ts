/**
 * Builds the single executable dist/troupe through the runtime's compile step
 * (src/runtime/compile.ts). The build time is baked in: a client compares it with the
 * daemon's to tell a newer build from an older one (src/version.ts).
 */
import { statSync } from "node:fs";
import { compileBinary } from "../src/runtime/compile.ts";

const outfile = process.argv[2] ?? "dist/troupe";
const result = await compileBinary({
  entry: "src/main.ts",
  outfile,
  define: { TROUPE_BUILD_STAMP: JSON.stringify(String(Date.now())) },
});
if (!result.ok) {
  for (const e of result.errors) process.stderr.write(`${e}\n`);
  process.exit(1);
}
// its size: the runtime it is appended to, and troupe's own share (see scripts/bench/binary-size.ts)
const MB = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const [size, runtime] = [statSync(outfile).size, statSync(process.execPath).size];
process.stdout.write(`built ${outfile}: ${MB(size)} (runtime ${MB(runtime)} + troupe ${MB(size - runtime)})\n`);
