import { TroupeError, errorMessage } from "../errors.ts";
import type { AgentSandbox } from "../protocol/sandbox.ts";
import type { PermissionMode, Provider, ProviderCommand } from "../../providers/types.ts";
import { sandboxAvailable } from "./available.ts";
import { bwrapArgs } from "./bwrap.ts";
import { sandboxPlan, type PlanInput } from "./plan.ts";
import type { SandboxSettings } from "./policy.ts";

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
 * One session's sandbox: the command wrapped in bubblewrap (src/sandbox/bwrap.ts), or as it was
 * with why. `auto` on a machine that cannot sandbox runs unsandboxed and says so; `strict`
 * refuses in one line; `off` is as before. The wrapper that records the pid and exit status
 * stays outside (src/agents/processes/launch-detached.ts): the files the daemon trusts are troupe's.
 */
export function sandboxSession(
  cmd: ProviderCommand,
  settings: SandboxSettings,
  where: Omit<PlanInput, "argv0" | "settings" | "provider" | "readOnlyWork"> & { provider: Provider; permissions: PermissionMode },
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
  const agent = where.provider.ownSandboxOff ? where.provider.ownSandboxOff(own) : own;
  let args: string[];
  try {
    args = bwrapArgs(sandboxPlan({ ...where, argv0: agent[0] ?? "", settings, readOnlyWork: where.permissions === "plan" }));
  } catch (err) {
    if (err instanceof TroupeError) throw err;
    throw new TroupeError("sandbox_unavailable", `the sandbox could not be prepared: ${errorMessage(err)}`);
  }
  return { cmd: { ...cmd, argv: [...outside, available.bwrap, ...args, "--", ...agent] }, state: { sandboxed: true, mode, network, note: null }, notices };
}
