import { z } from "zod";
import { TroupeError } from "./errors.ts";
import { describeIssue } from "./protocol/issue.ts";
import { readGuarded } from "./guarded-fs.ts";

// A JSON config file read against its schema: the workspace's (workspace-config.ts), the user's
// (user-config.ts), the remotes (remotes.ts). Kept apart from the workspace config's schemas, so
// that the dashboard and `troupe ls`, which may read the remotes, do not build those at every start.

/** A config file is a few KiB; a bigger one is refused whole, never read into memory. */
const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * A JSON config file checked by `schema`; null when there is none; broken (or something other
 * than a regular file of a sane size, or a link out of `root`) is a clear error, unknown keys a
 * warning. `root`: the folder the file must lie in, links resolved (the user's own config may
 * be a link anywhere).
 */
export function readJsonConfig<S extends z.ZodType>(path: string, schema: S, what: string, root = "/"): z.output<S> | null {
  const read = readGuarded(path, { maxBytes: CONFIG_MAX_BYTES, root, rootName: root === "/" ? root : "the workspace" });
  if (read.kind === "missing") return null;
  if (read.kind === "refused") {
    // said in the daemon's log too: the health of a daemon nobody spawns from would not show it
    warnOnce(`${read.reason}; refused until it is fixed`);
    throw new TroupeError("bad_request", read.reason);
  }
  const text = read.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new TroupeError("bad_request", `${path} is not valid JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new TroupeError("bad_request", `${path}: ${describeIssue(parsed.error, what)}`);
  }
  const unknown = unknownConfigKeys(schema, json);
  if (unknown.length) warnOnce(`${path}: ignoring unknown key${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (a newer troupe's?)`);
  return parsed.data;
}

/**
 * A config file's text as read once, and what it parses to against `schema` (null when it is no
 * valid JSON or breaks the schema: readJsonConfig says why); null when there is none. For a reader
 * that checks the text itself (its trust, src/trust.ts) and must take what it checked, never a
 * second read's. Refused reads (a FIFO, too big, a link out of `root`) throw, as in readJsonConfig.
 */
export function readJsonConfigText<S extends z.ZodType>(path: string, schema: S, root = "/"): { text: string; data: z.output<S> | null } | null {
  const read = readGuarded(path, { maxBytes: CONFIG_MAX_BYTES, root, rootName: root === "/" ? root : "the workspace" });
  if (read.kind === "missing") return null;
  if (read.kind === "refused") throw new TroupeError("bad_request", read.reason);
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch {
    return { text: read.text, data: null };
  }
  const parsed = schema.safeParse(json);
  return { text: read.text, data: parsed.success ? parsed.data : null };
}

let onWarning: (warning: string) => void = () => {};
let lastWarning: string | null = null;

/** The file is read at every spawn: the same warning is said once, until it changes. */
function warnOnce(warning: string): void {
  if (warning === lastWarning) return;
  lastWarning = warning;
  onWarning(warning);
}

/** Where warnings about config files go (the daemon's log): unknown keys (never refused), files refused unread. */
export function reportConfigWarningsTo(sink: (warning: string) => void): void {
  onWarning = sink;
}

/** The dotted paths of keys in `value` that `schema` does not know (`daemon.foo`, `providers.claude.bar`). */
export function unknownConfigKeys(schema: z.ZodType, value: unknown, at = ""): string[] {
  const inner = unwrap(schema);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [];
  const entries = Object.entries(value);
  if (inner instanceof z.ZodObject) {
    const shape = inner.shape as Record<string, z.ZodType>;
    return entries.flatMap(([k, v]) => (k in shape ? unknownConfigKeys(shape[k]!, v, `${at}${k}.`) : [`${at}${k}`]));
  }
  if (inner instanceof z.ZodRecord) return entries.flatMap(([k, v]) => unknownConfigKeys(inner.valueType as z.ZodType, v, `${at}${k}.`));
  return [];
}

function unwrap(s: z.ZodType): z.ZodType {
  if (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable) return unwrap(s.unwrap() as z.ZodType);
  return s;
}
