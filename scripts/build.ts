/**
 * Builds the single executable dist/troupe. Ink's reconciler imports `react-devtools-core`
 * (an optional peer we do not ship); a compiled binary fails at start unless that import
 * resolves, so the plugin resolves it to an empty module.
 */
import type { BunPlugin } from "bun";

const stubDevtools: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

const outfile = process.argv[2] ?? "dist/troupe";
const result = await Bun.build({
  entrypoints: ["src/main.ts"],
  compile: { outfile },
  format: "esm",
  target: "bun",
  minify: true,
  // precompiled bytecode: parsing the bundle at every start cost ~50 ms of each `troupe ask`
  bytecode: true,
  // the dashboard (Ink, React) and each command load as their own chunks, only when used
  splitting: true,
  plugins: [stubDevtools],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`built ${outfile}`);
