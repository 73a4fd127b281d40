import type { BunPlugin } from "bun";
import { join } from "node:path";
import type { BundlePage, BundleProgram, CompileBinary, CompileOptions } from "../contract.ts";
import { INK_PATCHED_FILES, patchInkSource } from "../ink-patch.ts";
import { lazyBuiltins } from "./lazy-builtins.ts";
import { pureBuiltins } from "./pure-builtins.ts";

/**
 * Ink's reconciler imports `react-devtools-core` (an optional peer we do not ship); a compiled
 * binary fails at start unless that import resolves, so it resolves to an empty module.
 */
const stubDevtools: BunPlugin = {
  name: "stub-react-devtools-core",
  setup(build) {
    build.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: "react-devtools-core", namespace: "stub" }));
    build.onLoad({ filter: /.*/, namespace: "stub" }, () => ({ contents: "export default {};", loader: "js" }));
  },
};

/**
 * `string-width`, wherever Ink's text helpers import it, resolves to ../portable/string-width.ts, which
 * measures common text itself and hands the rest to the package (imported from that file alone).
 */
const STRING_WIDTH = join(import.meta.dir, "..", "portable", "string-width.ts");
const fastStringWidth: BunPlugin = {
  name: "fast-string-width",
  setup(build) {
    build.onResolve({ filter: /^string-width$/ }, (args) => (args.importer === STRING_WIDTH ? undefined : { path: STRING_WIDTH }));
  },
};

/**
 * `@alcalzone/ansi-tokenize`, wherever Ink imports it, resolves to ../portable/ansi-tokenize.ts,
 * which tokenizes styled text of common characters itself and hands the rest to the package.
 */
const ANSI_TOKENIZE = join(import.meta.dir, "..", "portable", "ansi-tokenize.ts");
const fastAnsiTokenize: BunPlugin = {
  name: "fast-ansi-tokenize",
  setup(build) {
    build.onResolve({ filter: /^@alcalzone\/ansi-tokenize$/ }, (args) => (args.importer === ANSI_TOKENIZE ? undefined : { path: ANSI_TOKENIZE }));
  },
};

/** Ink's output pass reuses the rows that did not change (../ink-patch.ts). */
const inkPatch: BunPlugin = {
  name: "ink-row-reuse",
  setup(build) {
    build.onLoad({ filter: INK_PATCHED_FILES }, async (args) => ({ contents: patchInkSource(args.path, await Bun.file(args.path).text()), loader: "js" }));
  },
};

// React's production builds: the development ones cost the dashboard ~5 MB of RSS and their
// checks at every render
const PRODUCTION = { "process.env.NODE_ENV": JSON.stringify("production") };

/**
 * zod re-exports the error messages of 40-odd languages as `z.locales` (~270 KB of the bundle,
 * more as bytecode); troupe's messages are English, zod's default, which zod imports by itself.
 * Its locales index resolves to ./zod-locales.ts, which keeps English alone.
 */
const ZOD_LOCALES = join(import.meta.dir, "zod-locales.ts");
const zodEnglishOnly: BunPlugin = {
  name: "zod-english-only",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/]/.test(args.importer) ? { path: ZOD_LOCALES } : undefined));
  },
};

/** The Bun.build configuration of a troupe binary (scripts/bench/binary-size.ts varies it to measure). */
export function buildConfig(opts: CompileOptions): Bun.BuildConfig & { compile: Bun.CompileBuildOptions } {
  return {
    entrypoints: [opts.entry],
    // a project's .env or bunfig.toml in the current folder is not troupe's configuration: loaded, a
    // .env would change the workspace and the environment every agent inherits
    compile: {
      outfile: opts.outfile,
      autoloadDotenv: false,
      autoloadBunfig: false,
      ...(opts.cross ? { target: opts.cross.target as Bun.Build.CompileTarget, executablePath: opts.cross.runtime } : {}),
    },
    format: "esm",
    target: "bun",
    minify: true,
    // precompiled bytecode: parsing the bundle at every start cost ~50 ms of each `troupe ask`
    bytecode: true,
    // the dashboard (Ink, React) and each command load as their own chunks, only when used
    splitting: true,
    define: { ...PRODUCTION, ...opts.define },
    plugins: opts.stockInk ? [stubDevtools, fastStringWidth, fastAnsiTokenize, zodEnglishOnly] : [stubDevtools, fastStringWidth, fastAnsiTokenize, zodEnglishOnly, inkPatch],
  };
}

export const compileBinary: CompileBinary = async (opts) => {
  const result = await Bun.build(buildConfig(opts));
  return result.success ? { ok: true } : { ok: false, errors: result.logs.map(String) };
};

/**
 * For Node-compatible runtimes (Deno): packages inlined, `node:` built-ins imported (node:fs,
 * node:crypto, node:os and node:url when first called: ./lazy-builtins.ts; node:path and
 * parseArgs as plain JavaScript: ./pure-builtins.ts), `require` of them through node:module
 * (Bun's "node" target), the adapters of `opts.conditions`.
 */
export const bundleProgram: BundleProgram = async (opts) => {
  const result = await Bun.build({
    entrypoints: [opts.entry],
    outdir: opts.outdir,
    naming: { entry: "main.js", chunk: "[name]-[hash].js" },
    format: "esm",
    target: "node",
    conditions: opts.conditions,
    minify: true,
    splitting: true,
    define: { ...PRODUCTION, ...opts.define },
    plugins: [stubDevtools, fastStringWidth, fastAnsiTokenize, zodEnglishOnly, inkPatch, pureBuiltins, lazyBuiltins],
  });
  return result.success ? { ok: true } : { ok: false, errors: result.logs.map(String) };
};

export const bundlePage: BundlePage = async (entry) => {
  const result = await Bun.build({
    entrypoints: [entry],
    naming: { entry: "main.js", chunk: "chunk-[hash].js" },
    format: "esm",
    target: "browser",
    conditions: ["browser"],
    minify: true,
    splitting: true,
    define: PRODUCTION,
    // the modules the page shares with the dashboard were written for a process: a few read
    // process.env as they load (src/self.ts's build version); in a browser they find it empty.
    // In every file, since a shared chunk runs before the entry's own code
    banner: 'globalThis.process??={env:{},platform:"browser",argv:[],cwd:()=>"/"};',
    plugins: [fastStringWidth, fastAnsiTokenize, zodEnglishOnly],
  });
  if (!result.success) return { ok: false, errors: result.logs.map(String) };
  const files: Record<string, string> = {};
  for (const out of result.outputs) files[out.path.replace(/^\.\//, "")] = await out.text();
  return { ok: true, files };
};
