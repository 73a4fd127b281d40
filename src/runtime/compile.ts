// The one line that picks the build adapter (see contract.ts); only scripts/build.ts loads it.
export { compileBinary } from "./bun/compile.ts";
