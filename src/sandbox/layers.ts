import type { NetworkPolicy, SandboxConfig, SandboxMode } from "../protocol/sandbox.ts";
import { isTrusted } from "../trust.ts";
import { readUserConfig } from "../user-config.ts";
import { readWorkspaceConfig, readWorkspaceConfigText } from "../workspace-config.ts";
import { resolveSandbox, type SandboxLayer, type SandboxSettings } from "./policy.ts";

/**
 * The workspace config's `sandbox`, trusted when the person trusted the file's current content
 * (`troupe trust`, as for `worktree.setup`): a branch can change the file, so until then it only tightens.
 */
function workspaceLayer(stateDir: string): SandboxLayer | null {
  const read = readWorkspaceConfigText(stateDir);
  if (!read) return null;
  if (!read.config) readWorkspaceConfig(stateDir); // throws the broken file's own one-line error
  // what is checked is what is taken: the trusted text's own sandbox, never a second read's
  const config = read.config?.sandbox;
  return config ? { from: read.path, config, trusted: isTrusted(read.path, process.env, read.text) } : null;
}

/** The sandbox of the profile an agent was spawned under, as its role keeps it (src/agents/files/spawn-role.ts). */
export interface ProfileSandbox {
  profile: string;
  config: SandboxConfig;
  trusted: boolean;
}

/** Where an agent's sandbox settings come from, in precedence order: the spawn's flags, its profile, the user config, the workspace config. */
export function sandboxLayers(stateDir: string, flags: { sandbox?: SandboxMode; network?: NetworkPolicy } = {}, profile: ProfileSandbox | null = null): SandboxLayer[] {
  const flag: SandboxLayer = { from: "the spawn", config: { mode: flags.sandbox, network: flags.network }, trusted: true };
  const own: SandboxLayer[] = profile ? [{ from: `profile ${profile.profile}`, config: profile.config, trusted: profile.trusted }] : [];
  const user = readUserConfig().sandbox;
  const ws = workspaceLayer(stateDir);
  return [flag, ...own, ...(user ? [{ from: "the user config", config: user, trusted: true }] : []), ...(ws ? [ws] : [])];
}

/**
 * A session's settings: the agent's own mode and network (what its spawn resolved, flags
 * included; for an agent from before sandboxes, what the configs say now), and the extra paths,
 * hosts and variables of its profile (as its role keeps it) and of the configs as they are now.
 */
export function sessionSandboxSettings(stateDir: string, own: { mode: SandboxMode; network: NetworkPolicy } | null, profile: ProfileSandbox | null = null): SandboxSettings {
  const now = resolveSandbox(sandboxLayers(stateDir, {}, profile));
  return own ? { ...now, mode: own.mode, network: own.network } : now;
}
