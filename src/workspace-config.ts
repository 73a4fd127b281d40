import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { TroupeError } from "./errors.ts";
import { describeIssue } from "./protocol/issue.ts";
import { DEFAULT_KEEP_DAYS, DEFAULT_OUTPUT_CAP, WorkspaceConfigSchema, unknownConfigKeys, type ProviderConfig, type WorkspaceConfig, type WorktreeConfig } from "./protocol/config.ts";

export function configPath(stateDir: string): string {
  return join(stateDir, "config.json");
}

/** The workspace config; none is an empty one, a broken one is a clear error (never a silent default). */
export function readWorkspaceConfig(stateDir: string): WorkspaceConfig {
  return readJsonConfig(configPath(stateDir), WorkspaceConfigSchema, "config") ?? { providers: {} };
}

/** A JSON config file checked by `schema`; null when there is none; broken is a clear error, unknown keys a warning. */
export function readJsonConfig<S extends z.ZodType>(path: string, schema: S, what: string): z.output<S> | null {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return null;
  }
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

let onUnknownKeys: (warning: string) => void = () => {};
let lastWarning: string | null = null;

/** The file is read at every spawn: the same warning is said once, until it changes. */
function warnOnce(warning: string): void {
  if (warning === lastWarning) return;
  lastWarning = warning;
  onUnknownKeys(warning);
}

/** Where warnings about unknown config keys go (the daemon's log); they never refuse anything. */
export function reportConfigWarningsTo(sink: (warning: string) => void): void {
  onUnknownKeys = sink;
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
