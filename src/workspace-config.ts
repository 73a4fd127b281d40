import { join } from "node:path";
import type { z } from "zod";
import { TroupeError } from "./errors.ts";
import { describeIssue } from "./protocol/issue.ts";
import { readGuarded } from "./guarded-fs.ts";
import { DEFAULT_KEEP_DAYS, DEFAULT_OUTPUT_CAP, WorkspaceConfigSchema, unknownConfigKeys, type ProviderConfig, type WorkspaceConfig, type WorktreeConfig } from "./protocol/config.ts";

export function configPath(stateDir: string): string {
  return join(stateDir, "config.json");
}

/** A config file is a few KiB; a bigger one is refused whole, never read into memory. */
export const CONFIG_MAX_BYTES = 1024 * 1024;

/**
 * The workspace config; none is an empty one, a broken one is a clear error (never a silent
 * default). A branch can carry the file (and an agent working in the workspace can write it), so
 * it is read guarded: a FIFO, a device or a file over 1 MiB is refused at once, and so is a link
 * out of the workspace.
 */
export function readWorkspaceConfig(stateDir: string): WorkspaceConfig {
  // inside the state folder, links resolved: a `.troupe` the person linked to another disk is theirs
  return readJsonConfig(configPath(stateDir), WorkspaceConfigSchema, "config", stateDir) ?? { providers: {} };
}

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

/** The `worktree` section, with `keepDays` defaulted. */
export function worktreeConfig(stateDir: string): WorktreeConfig & { keepDays: number } {
  const wt = readWorkspaceConfig(stateDir).worktree ?? {};
  return { ...wt, keepDays: wt.keepDays ?? DEFAULT_KEEP_DAYS };
}

export function providerConfig(stateDir: string, provider: string): ProviderConfig {
  return readWorkspaceConfig(stateDir).providers[provider] ?? {};
}

/** Stored output per agent: the config's `output.maxPerAgent`, or 256 MiB. */
export function outputCap(stateDir: string): number {
  return readWorkspaceConfig(stateDir).output?.maxPerAgent ?? DEFAULT_OUTPUT_CAP;
}
