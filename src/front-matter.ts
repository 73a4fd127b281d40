import { parseDocument } from "yaml";
import { TroupeError } from "./errors.ts";

/**
 * Markdown with YAML front matter, as files people and agents write it (proposals, decisions,
 * profiles). A real YAML parser, unique keys, aliases capped; the caller validates `data` with zod.
 * Errors are `bad_request`, one line, starting with `file`.
 */

// `---` on its own line opens and closes the front matter (YAML's `...` may close it too)
const FRONT_MATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/** `file: problem`, the one line a refused file gets. */
export function fileError(file: string, problem: string): TroupeError {
  return new TroupeError("bad_request", `${file}: ${problem}`);
}

/** Splits `---\n<yaml>\n---\n<body>`; `data` is null when the file has no front matter. */
export function splitFrontMatter(file: string, text: string): { data: unknown; body: string } {
  const src = text.replace(/^\uFEFF/, "");
  const m = FRONT_MATTER.exec(src);
  if (!m) {
    if (/^---[ \t]*\r?\n/.test(src)) throw fileError(file, "the front matter opened with --- is never closed by a --- line");
    return { data: null, body: src.trim() };
  }
  // uniqueKeys: two `title:` lines are a mistake, not "the last wins"
  const doc = parseDocument(m[1]!, { uniqueKeys: true, prettyErrors: false });
  const err = doc.errors[0];
  if (err) throw fileError(file, `front matter is not valid YAML (line ${(err.linePos?.[0]?.line ?? 0) + 1}): ${err.message.split("\n")[0]}`);
  let data: unknown;
  try {
    // an alias bomb stops here rather than filling memory
    data = doc.toJS({ maxAliasCount: 50 });
  } catch (e) {
    throw fileError(file, `front matter cannot be read: ${(e as Error).message}`);
  }
  return { data, body: src.slice(m[0].length).trim() };
}
