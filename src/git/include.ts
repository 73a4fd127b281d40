import { cpSync, lstatSync } from "node:fs";
import { dirname, join } from "node:path";
import ignore from "ignore";
import { simpleGit } from "simple-git";
import { errorMessage } from "../errors.ts";
import { makeDirGuarded, readGuardedText } from "../guarded-fs.ts";

/** The file at a repository's root naming ignored files a worktree needs (Claude Code reads it too). */
const WORKTREE_INCLUDE_FILE = ".worktreeinclude";

/** A list of patterns, not a tree: a bigger file is refused, never read into memory. */
const INCLUDE_MAX_BYTES = 64 * 1024;

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
 * whole (a `node_modules/`) when the worktree has nothing there, else file by file; troupe's own
 * `.troupe/` never. The worktree is a branch's checkout, which may carry links: nothing is copied
 * through a folder on the way that is a link, or onto anything already at the destination (such
 * a file is skipped and named in `skipped`, the others are copied). Returns the paths copied.
 */
export async function copyIncluded(root: string, worktree: string, patterns: string[]): Promise<{ copied: string[]; skipped: string[] }> {
  const copied: string[] = [];
  const skipped: string[] = [];
  if (!patterns.some((p) => p.trim() && !p.trim().startsWith("#"))) return { copied, skipped };
  const ig = ignore().add(patterns);
  const git = simpleGit(root);
  const list = async (under: string[], folders: boolean) =>
    (await git.raw(["ls-files", "--others", "--ignored", "--exclude-standard", ...(folders ? ["--directory"] : []), "-z", "--", ...under])).split("\0").filter(Boolean);
  const copy = (path: string, whole: boolean) => {
    const dest = join(worktree, path);
    try {
      makeDirGuarded(dirname(dest), worktree, 0o777);
      if (lstatSync(dest, { throwIfNoEntry: false })) throw new Error(`${dest} is already there`);
      cpSync(join(root, path), dest, { recursive: whole, verbatimSymlinks: true, errorOnExist: true, force: false });
      copied.push(path);
    } catch (err) {
      skipped.push(`${path} (${errorMessage(err)})`);
    }
  };
  const isOurs = (p: string) => p === ".troupe/" || p.startsWith(".troupe/");
  for (const path of await list([], true)) {
    if (isOurs(path)) continue;
    const folder = path.endsWith("/");
    if (ig.ignores(path) && !(folder && lstatSync(join(worktree, path), { throwIfNoEntry: false }))) copy(path, folder);
    else if (folder) {
      // a folder not copied whole (not matched as one, or the branch has something there): each file inside that matches
      for (const p of await list([path], false)) if (!isOurs(p) && ig.ignores(p)) copy(p, false);
    }
  }
  return { copied, skipped };
}
