// Picks the build adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts); only scripts/build.ts loads it.
export { bundlePage, bundleProgram, compileBinary } from "#runtime/compile.ts";
