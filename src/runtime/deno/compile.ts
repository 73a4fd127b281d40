import type { BundlePage, BundleProgram, CompileBinary } from "../contract.ts";

// troupe is built by Bun's bundler, for either runtime (npm run build, npm run build:deno, which
// then runs `deno compile` itself where it can): under Deno the build step says so and stops.
const underBun = async () => ({ ok: false as const, errors: ["troupe builds under Bun: npm run build (dist/troupe) or npm run build:deno (dist/troupe-deno)"] });

export const compileBinary: CompileBinary = underBun;
export const bundleProgram: BundleProgram = underBun;
export const bundlePage: BundlePage = underBun;
