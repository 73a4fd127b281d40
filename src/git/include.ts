import { cpSync } from "node:fs";
import { join } from "node:path";
import ignore from "ignore";
import { simpleGit } from "simple-git";
import { readGuardedText } from "../guarded-fs.ts";

/** The file at a repository's root naming ignored files a worktree needs (Claude Code reads it too). */
export const WORKTREE_INCLUDE_FILE = ".worktreeinclude";

/** A list of patterns, not a tree: a bigger file is refused, never read into memory. */
export const INCLUDE_MAX_BYTES = 64 * 1024;

/**
 * The patterns of `.worktreeinclude` (gitignore syntax) and of the config's `worktree.include`.
 * A branch can carry the file: a FIFO, a device, a file over 64 KiB or a link out of the
 * repository is refused (`bad_request`, naming it), never read.
 */
export function includePatterns(root: string, extra: string[]): string[] {
  const text = readGuardedText(join(root, WORKTREE_INCLUDE_FILE), { maxBytes: INCLUDE_MAX_BYTES, root, rootName: "the workspace" });
  return [...(text === null ? [] : text.split("\n")), ...extra];
}

/**
 * Copies into a new worktree the files of `root` that git ignores AND the patterns match (a
 * `.env`, a local config): only ignored files, since tracked ones are already checked out and an
 * untracked one is the person's work in progress. An ignored folder the patterns match is copied
 * whole (a `node_modules/`); troupe's own `.troupe/` never. Returns the paths copied.
 */
export async function copyIncluded(root: string, worktree: string, patterns: string[]): Promise<string[]> {
  if (!patterns.some((p) => p.trim() && !p.trim().startsWith("#"))) return [];
  const ig = ignore().add(patterns);
  const git = simpleGit(root);
  const list = async (under: string[]) =>
    (await git.raw(["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--", ...under])).split("\0").filter(Boolean);
  const copied: string[] = [];
  const queue = await list([]);
  while (queue.length) {
    const path = queue.shift()!;
    if (path === ".troupe/" || path.startsWith(".troupe/")) continue;
    if (ig.ignores(path)) {
      cpSync(join(root, path), join(worktree, path), { recursive: true, verbatimSymlinks: true, errorOnExist: false, force: false });
      copied.push(path);
    } else if (path.endsWith("/")) {
      // a folder not matched as a whole may hold matching files: test each file inside
      const inside = (await git.raw(["ls-files", "--others", "--ignored", "--exclude-standard", "-z", "--", path])).split("\0").filter(Boolean);
      for (const p of inside) if (!p.startsWith(".troupe/") && ig.ignores(p)) {
        cpSync(join(root, p), join(worktree, p), { verbatimSymlinks: true, force: false });
        copied.push(p);
      }
    }
  }
  return copied;
}
