/**
 * A unified diff (`git diff` with `a/` and `b/` prefixes) as lines that say what they are: each
 * line of code with its file and its numbers on the old and new side, so a line can be pointed
 * at (a review comment) and found again. Pure; the shape is src/protocol/review.ts's DiffLine
 * (this layer does not import the protocol: the type checker holds the two together where the
 * query use case returns it, src/agents/use-cases/query.ts).
 */

export type Section = "committed" | "uncommitted";
type LineKind = "section" | "file" | "meta" | "hunk" | "add" | "del" | "context" | "note";

export interface ParsedLine {
  text: string;
  kind: LineKind;
  section?: Section;
  file?: string;
  old?: number;
  new?: number;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** The lines of `diff` (text as git printed it), each marked with `section`. */
export function parseDiff(diff: string, section?: Section): ParsedLine[] {
  const out: ParsedLine[] = [];
  const tag = section ? { section } : {};
  let file: string | undefined;
  // the header lines of the current file, given its name once `---`/`+++` tell it
  let headerFrom = -1;
  let oldNo = 0;
  let newNo = 0;
  // lines left in the hunk on each side: a removed `-- x` is `--- x`, which only the counts tell from a header
  let oldLeft = 0;
  let newLeft = 0;
  const setFile = (name: string) => {
    file = name;
    for (let i = headerFrom; i >= 0 && i < out.length; i++) out[i]!.file = name;
  };
  for (const text of splitLines(diff)) {
    if (oldLeft > 0 || newLeft > 0) {
      const mark = text[0];
      if (mark === "+" && newLeft > 0) {
        out.push({ text, kind: "add", ...tag, file, new: newNo++ });
        newLeft--;
        continue;
      }
      if (mark === "-" && oldLeft > 0) {
        out.push({ text, kind: "del", ...tag, file, old: oldNo++ });
        oldLeft--;
        continue;
      }
      // git prints a blank unchanged line as " " (as "" with diff.suppressBlankEmpty)
      if ((mark === " " || text === "") && oldLeft > 0 && newLeft > 0) {
        out.push({ text, kind: "context", ...tag, file, old: oldNo++, new: newNo++ });
        oldLeft--;
        newLeft--;
        continue;
      }
      if (mark === "\\") {
        out.push({ text, kind: "note", ...tag, file });
        continue;
      }
      // a hunk shorter than its header said: what follows is read afresh
      oldLeft = newLeft = 0;
    }
    if (text.startsWith("\\")) {
      out.push({ text, kind: "note", ...tag, file });
      continue;
    }
    const hunk = HUNK.exec(text);
    if (hunk && headerFrom >= 0) {
      oldNo = Number(hunk[1]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newNo = Number(hunk[3]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      out.push({ text, kind: "hunk", ...tag, file });
      continue;
    }
    if (text.startsWith("diff --git ")) {
      headerFrom = out.length;
      file = gitLinePath(text);
      out.push({ text, kind: "file", ...tag, ...(file !== undefined && { file }) });
      continue;
    }
    if (headerFrom >= 0 && (text.startsWith("--- ") || text.startsWith("+++ "))) {
      out.push({ text, kind: "meta", ...tag, ...(file !== undefined && { file }) });
      const path = headerPath(text.slice(4), text.startsWith("+++ ") ? "b/" : "a/");
      // the new side names the file, unless it was deleted (`+++ /dev/null`)
      if (path !== null && (text.startsWith("+++ ") || file === undefined)) setFile(path);
      continue;
    }
    if (headerFrom >= 0 && /^(index |old mode|new mode|deleted file mode|new file mode|similarity index|dissimilarity index|rename from|rename to|copy from|copy to|Binary files)/.test(text)) {
      out.push({ text, kind: "meta", ...tag, ...(file !== undefined && { file }) });
      continue;
    }
    out.push({ text, kind: "note", ...tag });
  }
  return out;
}

/** `diff` as lines, without the newline that ends the last; nothing for an empty diff. */
export function splitLines(diff: string): string[] {
  if (diff === "") return [];
  return diff.replace(/\n$/, "").split("\n");
}

/** The new path of a `diff --git a/P b/P` line when the two halves agree (a rename or an odd name waits for `+++`). */
function gitLinePath(line: string): string | undefined {
  const rest = line.slice("diff --git ".length);
  if (rest.startsWith('"')) {
    const a = readQuoted(rest);
    if (!a) return undefined;
    const b = rest.slice(a.length + 1);
    const bp = b.startsWith('"') ? readQuoted(b)?.value : b;
    return bp?.startsWith("b/") ? bp.slice(2) : undefined;
  }
  // unquoted: "a/X b/X"; split where both halves name the same path
  if (!rest.startsWith("a/")) return undefined;
  const len = rest.length;
  if ((len - 1) % 2 !== 0) return undefined;
  const half = (len - 1) / 2;
  const a = rest.slice(0, half);
  const b = rest.slice(half + 1);
  return rest[half] === " " && b.startsWith("b/") && a.slice(2) === b.slice(2) ? b.slice(2) : undefined;
}

/** The path of a `---`/`+++` header's rest: null for /dev/null; a quoted path unquoted; the `a/`/`b/` prefix cut. */
function headerPath(rest: string, prefix: string): string | null {
  // git ends a path with a space in a tab before the timestamp some diffs carry
  const raw = rest.startsWith('"') ? (readQuoted(rest)?.value ?? rest) : rest.replace(/\t.*$/, "");
  if (raw === "/dev/null") return null;
  return raw.startsWith(prefix) ? raw.slice(prefix.length) : raw;
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A C-quoted path as git writes one with unusual characters (`"b/caf\303\251"`), and its length with the quotes. */
function readQuoted(s: string): { value: string; length: number } | null {
  const bytes: number[] = [];
  for (let i = 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"') return { value: new TextDecoder().decode(new Uint8Array(bytes)), length: i + 1 };
    if (c !== "\\") {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = s[++i];
    if (next === undefined) return null;
    const oct = /^[0-7]{3}/.exec(s.slice(i, i + 3));
    if (oct) {
      bytes.push(parseInt(oct[0], 8));
      i += 2;
    } else if (next in ESCAPES) bytes.push(ESCAPES[next]!);
    else return null;
  }
  return null;
}
