/**
 * Preloaded for every `bun test` run (bunfig.toml): Ink's files load with the patch the build
 * applies (src/runtime/ink-patch.ts), so the dashboard's tests draw with the output pass that ships.
 */
import { plugin } from "bun";
import { INK_PATCHED_FILES, patchInkSource } from "../../src/runtime/ink-patch.ts";

plugin({
  name: "ink-row-reuse",
  setup(build) {
    build.onLoad({ filter: INK_PATCHED_FILES }, async (args) => ({ contents: patchInkSource(args.path, await Bun.file(args.path).text()), loader: "js" }));
  },
});
