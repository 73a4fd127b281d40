/**
 * Builds the single executable dist/troupe through the runtime's compile step
 * (src/runtime/compile.ts). The build time is baked in: a client compares it with the
 * daemon's to tell a newer build from an older one (src/version.ts).
 */
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
process.stdout.write(`built ${outfile}\n`);
