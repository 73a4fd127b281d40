import { realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { AgentSandbox } from "../protocol/sandbox.ts";
import type { PermissionMode, Provider, ProviderCommand } from "../../providers/types.ts";
import { agentSocketFor, netDirFor, tmpDirFor } from "../workspace.ts";
import { sandboxAvailable } from "./available.ts";
import { bwrapArgs } from "./bwrap.ts";
import { seatbeltArgs } from "./seatbelt.ts";
import { sandboxPlan, type PlanInput } from "./plan.ts";
import type { SandboxSettings } from "./policy.ts";
import { urlHost } from "./hosts.ts";
import { quietStartEnv } from "../self.ts";

export interface SessionSandbox {
  cmd: ProviderCommand;
  state: AgentSandbox;
  /** Lines for the agent's output: why it runs unsandboxed, what a config tried and was not taken. */
  notices: string[];
}

/**
 * The argv of the agent itself: for an ACP CLI, what its runner (`troupe acp-run ... -- argv`)
 * starts. The runner stays outside the sandbox (it writes the files the daemon trusts, and holds
 * the agent's stdio), and starts the agent inside it.
 */
function splitRunner(cmd: ProviderCommand): { outside: string[]; agent: string[] } {
  const cut = cmd.ownInput ? cmd.argv.indexOf("--") : -1;
  return cut < 0 ? { outside: [], agent: cmd.argv } : { outside: cmd.argv.slice(0, cut + 1), agent: cmd.argv.slice(cut + 1) };
}

/**
 * One session's sandbox: the command wrapped in bubblewrap (src/sandbox/bwrap.ts; on macOS in
 * Seatbelt, seatbelt.ts), or as it was
 * with why. `auto` on a machine that cannot sandbox runs unsandboxed and says so; `strict`
 * refuses in one line; `off` is as before. The wrapper that records the pid and exit status
 * stays outside (src/agents/processes/launch-detached.ts): the files the daemon trusts are troupe's.
 */
export function sandboxSession(
  cmd: ProviderCommand,
  settings: SandboxSettings,
  where: Omit<PlanInput, "argv0" | "settings" | "provider" | "readOnlyWork" | "netDir" | "tmpDir"> & {
    agentId: string;
    provider: Provider;
    permissions: PermissionMode;
    /**
     * Whose model API network `allow` lets through: the person's environment (their spawn's,
     * with the account's), never what an agent put in its worker's spawn (an agent's own
     * `ANTHROPIC_BASE_URL=http://anywhere` would otherwise open its worker's network).
     */
    modelEnv: Record<string, string>;
  },
): SessionSandbox {
  const { mode, network } = settings;
  const notices = settings.ignored.map((l) => `troupe: sandbox: ${l}`);
  if (mode === "off") return { cmd, state: { sandboxed: false, mode, network, note: "sandbox mode off" }, notices };
  const available = sandboxAvailable(where.env.PATH);
  if (!available.ok) {
    if (mode === "strict") throw new TroupeError("sandbox_unavailable", `sandbox mode strict: ${available.why}; nothing was started`);
    notices.push(`troupe: sandbox: this agent runs unsandboxed: ${available.why} (sandbox mode auto; strict would refuse)`);
    return { cmd, state: { sandboxed: false, mode, network, note: available.why }, notices };
  }
  const { outside, agent: own } = splitRunner(cmd);
  // a CLI's own sandbox cannot nest in this one: off, and this one enforces the mode
  const ownOff = where.provider.ownSandboxOff;
  const agent = ownOff?.argv ? ownOff.argv(own) : own;
  const seatbelt = available.tool === "sandbox-exec";
  if (seatbelt && network === "allow") throw new TroupeError("sandbox_unavailable", "network allow needs a network namespace of the agent's own (Linux); on macOS use network all or none");
  const netDir = network === "allow" ? netDirFor(where.socket, where.agentId) : undefined;
  let planned: ReturnType<typeof sandboxPlan>;
  try {
    planned = sandboxPlan({ ...where, argv0: agent[0] ?? "", settings, readOnlyWork: where.permissions === "plan", ...(netDir && { netDir }), ...(seatbelt && { tmpDir: tmpDirFor(where.socket, where.agentId) }) });
  } catch (err) {
    if (err instanceof TroupeError) throw err;
    throw new TroupeError("sandbox_unavailable", `the sandbox could not be prepared: ${errorMessage(err)}`);
  }
  const { missing, ...plan } = planned;
  // a path that is not there is not opened: strict refuses, auto runs without it (tighter, never looser)
  if (missing.length && mode === "strict") throw new TroupeError("sandbox_unavailable", `sandbox mode strict: ${missing.join("; ")}; nothing was started`);
  notices.push(...missing.map((m) => `troupe: sandbox: ${m}: not opened (sandbox mode auto; strict would refuse)`));
  const ownEnv = Object.entries(ownOff?.env ?? {});
  if (seatbelt) {
    for (const [k, v] of ownEnv) plan.setenv[k] = v;
    return { cmd: { ...cmd, argv: [...outside, available.path, ...seatbeltArgs(plan, realSocket(agentSocketFor(where.socket))), ...agent] }, state: { sandboxed: true, mode, network, note: null }, notices };
  }
  const args = bwrapArgs(plan);
  for (const [k, v] of ownEnv) args.push("--setenv", k, v);
  const bwrap = [available.path, ...args];
  const argv = netDir ? withProxy(bwrap, agent, join(netDir, "proxy.sock"), allowedHosts(settings.allowHosts, where.provider, where.modelEnv), where.self, where.env) : [...bwrap, "--", ...agent];
  return { cmd: { ...cmd, argv: [...outside, ...argv] }, state: { sandboxed: true, mode, network, note: null }, notices };
}

/** The socket's path with its folder's links resolved: Seatbelt matches the real one (/var is /private/var on macOS). */
function realSocket(path: string): string {
  try {
    return join(realpathSync(dirname(path)), basename(path));
  } catch {
    return path;
  }
}

/** What network `allow` lets through: the configs' hosts, and the CLI's model API (its URL variable's host when set, else its own hosts). */
function allowedHosts(configured: readonly string[], provider: Provider, env: Record<string, string>): string[] {
  const fromEnv = (provider.api?.urlEnv ?? []).flatMap((k) => (env[k] ? [urlHost(env[k])].filter((h): h is string => h !== null) : []));
  return [...new Set([...configured, ...(fromEnv.length ? fromEnv : (provider.api?.hosts ?? []))])];
}

/**
 * network `allow`: the proxy (outside, in troupe's own process) around bwrap, and the bridge
 * (inside, before the agent) that gives the agent's HTTP clients a port reaching it.
 */
function withProxy(bwrap: string[], agent: string[], socket: string, hosts: string[], self: string[], env: Record<string, string>): string[] {
  // each starts quiet at once (it takes the settings back out before it starts what follows)
  const quiet = Object.entries(quietStartEnv(env));
  const proxy = [...(quiet.length ? ["/usr/bin/env", ...quiet.map(([k, v]) => `${k}=${v}`)] : []), ...self, "sandbox-net", "proxy", "--socket", socket, ...hosts.map((h) => `--allow=${h}`)];
  const bridge = [...self, "sandbox-net", "bridge", "--socket", socket];
  return [...proxy, "--", ...bwrap, ...quiet.flatMap(([k, v]) => ["--setenv", k, v]), "--", ...bridge, "--", ...agent];
}
