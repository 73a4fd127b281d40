/**
 * Ink's output pass, made to cost what changed (patches/ink+8.0.0.patch, written against Ink's
 * published build so that it can be offered upstream as it is): `Output.get` keeps the previous
 * frame's rows and rebuilds only those whose writes changed, and the text caches carry over one
 * frame. The patch is applied to Ink's own files as they are bundled (src/runtime/bun/compile.ts)
 * and as tests and source runs load them (bun/ink-preload.ts, preloaded by bunfig.toml); a patch that no longer applies (another Ink
 * version) fails the build with the file's name, never ships unpatched in silence.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { applyPatch, parsePatch, type StructuredPatch } from "diff";

const INK_PATCH_FILE = fileURLToPath(new URL("../../patches/ink+8.0.0.patch", import.meta.url));

/** Matches the Ink files the patch changes (by their path inside the package). */
export const INK_PATCHED_FILES = /[\\/]ink[\\/]build[\\/](output|renderer|line-update)\.js$/;

let parsed: StructuredPatch[] | null = null;

/** `source` of the Ink file at `path` with the patch applied; unchanged for a file the patch does not touch. */
export function patchInkSource(path: string, source: string): string {
  parsed ??= parsePatch(readFileSync(INK_PATCH_FILE, "utf8"));
  const file = parsed.find((p) => p.newFileName && path.replaceAll("\\", "/").endsWith(`/ink/${p.newFileName.replace(/^b\//, "")}`));
  if (!file) return source;
  const out = applyPatch(source, file);
  if (out === false) throw new Error(`${INK_PATCH_FILE} does not apply to ${path} (another Ink version?)`);
  return out;
}
