import picomatch from "picomatch";

/**
 * Which tasks may run side by side: a task owns the files its `files:` globs name (relative to the
 * repository root); a task without a list owns what no other task of its phase names, and is not
 * kept from another without one. Two tasks whose files could be the same file never run at once (docs/work-model.md, "File ownership"):
 * they would otherwise meet only as a merge conflict. The test is conservative: a false overlap
 * makes a task wait for another, a missed one would cost a conflict.
 */

/** What dispatch needs of a task to know what it owns. */
export interface Owner {
  id: string;
  slug: string;
  phaseId: string;
  /** Its globs; null: no list, the rest of its phase. */
  files: string[] | null;
}

const OPTIONS = { dot: true };

/** The folders a glob's text fixes before its first pattern character ("" for none); a plain path is all of itself. */
function base(glob: string): { dir: string; plain: boolean } {
  const scanned = picomatch.scan(glob);
  return scanned.isGlob ? { dir: scanned.base, plain: false } : { dir: glob, plain: true };
}

/** `a` is `b` or a folder holding it, by whole path segments ("" holds everything). */
function holds(a: string, b: string): boolean {
  return a === "" || a === b || b.startsWith(`${a}/`);
}

/** The extension a glob's last part fixes (`src/*.ts`: ts), or null when it fixes none. */
function extension(glob: string): string | null {
  const last = glob.slice(glob.lastIndexOf("/") + 1);
  return /^[^{}[\]()]*\.([A-Za-z0-9]+)$/.exec(last)?.[1] ?? null;
}

/** Whether one file could be named by both globs. */
export function globsMeet(a: string, b: string): boolean {
  if (a === b) return true;
  // one names the other's text (src/** and src/api.ts; src/*.ts and src/api.ts)
  if (picomatch(a, OPTIONS)(b) || picomatch(b, OPTIONS)(a)) return true;
  const ba = base(a);
  const bb = base(b);
  if (!holds(ba.dir, bb.dir) && !holds(bb.dir, ba.dir)) return false;
  // two plain paths, one a folder holding the other
  if (ba.plain && bb.plain) return true;
  const ea = extension(a);
  const eb = extension(b);
  return !(ea && eb && ea !== eb);
}

/** The first glob of `theirs` that one of `mine` could share a file with, or null. */
function firstMeeting(mine: string[], theirs: string[]): string | null {
  for (const t of theirs) if (mine.some((m) => globsMeet(m, t))) return t;
  return null;
}

/** Whether `glob` lies inside what one of `named` names (so the rest of that phase does not own it). */
function namedIn(glob: string, named: string[]): boolean {
  return named.some((n) => n === glob || picomatch(n, OPTIONS)(glob) || (base(n).plain && holds(n, glob)));
}

/**
 * Ownership across an initiative's tasks: `clash(task, other)` says what `other` holds that
 * `task` needs (a glob of other's, or its phase's rest), or null when they may run at once.
 */
export class FileOwnership {
  /** Per phase: the globs its tasks name. */
  private readonly named = new Map<string, string[]>();

  constructor(tasks: Owner[]) {
    for (const t of tasks) {
      if (!t.files) continue;
      const list = this.named.get(t.phaseId) ?? [];
      list.push(...t.files);
      this.named.set(t.phaseId, list);
    }
  }

  clash(task: Owner, other: Owner): string | null {
    if (task.id === other.id) return null;
    if (task.files && other.files) return firstMeeting(task.files, other.files);
    // neither says what it touches: kept apart, every plan detailed without lists would run one
    // task at a time; they meet at the ordered merge, as before lists (docs/work-model.md)
    if (!task.files && !other.files) return null;
    // one owns globs, the other the rest of its phase: a glob its phase names is not in that rest
    const [globs, rest] = task.files ? [task.files, other] : [other.files!, task];
    const named = this.named.get(rest.phaseId) ?? [];
    return globs.find((g) => !namedIn(g, named)) ?? null;
  }
}
