import { join } from "node:path";
import { readJsonConfig, readJsonConfigText } from "./json-config.ts";
import { DEFAULT_KEEP_DAYS, DEFAULT_OUTPUT_CAP, WorkspaceConfigSchema, type PortsConfig, type ProviderConfig, type WorkspaceConfig, type WorktreeConfig } from "./protocol/config.ts";

function configPath(stateDir: string): string {
  return join(stateDir, "config.json");
}

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

/** The workspace config's text and what it parses to, read once (for a trust check: `readJsonConfigText`). */
export function readWorkspaceConfigText(stateDir: string): { path: string; text: string; config: WorkspaceConfig | null } | null {
  const path = configPath(stateDir);
  const read = readJsonConfigText(path, WorkspaceConfigSchema, stateDir);
  return read && { path, text: read.text, config: read.data };
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

/** The `ports` range agents' worktrees take theirs from, `per` defaulted to 1; null: none handed out. */
export function portsConfig(stateDir: string): Required<PortsConfig> | null {
  const ports = readWorkspaceConfig(stateDir).ports;
  return ports ? { ...ports, per: ports.per ?? 1 } : null;
}
