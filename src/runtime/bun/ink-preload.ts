/**
 * Preloaded by bunfig.toml for every `bun test` run and every `bun <file>` run from the project's
 * folder (the dashboard run from source): Ink's files load with the patch the build applies
 * (../ink-patch.ts), so tests and source runs draw with the output pass that ships.
 */
import { plugin } from "bun";
import { INK_PATCHED_FILES, patchInkSource } from "../ink-patch.ts";

plugin({
  name: "ink-row-reuse",
  setup(build) {
    build.onLoad({ filter: INK_PATCHED_FILES }, async (args) => ({ contents: patchInkSource(args.path, await Bun.file(args.path).text()), loader: "js" }));
  },
});
