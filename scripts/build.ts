/**
 * Builds the single executable dist/troupe through the runtime's compile step
 * (src/runtime/compile.ts). The build time is baked in: a client compares it with the
 * daemon's to tell a newer build from an older one (src/self.ts). First it writes the reply checks
 * generated from their zod schemas (scripts/gen-reply-checks.ts) when those changed.
 */
import { statSync } from "node:fs";
import { compileBinary } from "../src/runtime/compile.ts";
import { OUTPUT, writeReplyChecks } from "./gen-reply-checks.ts";
import { buildWebPage } from "./build-web.ts";

// the zod-free reply checks, generated from the schemas they check: a build never carries stale ones
if (writeReplyChecks()) process.stdout.write(`wrote ${OUTPUT} (the reply schemas changed)\n`);
// the web page, which the binary carries (src/web/assets.ts)
await buildWebPage();

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
