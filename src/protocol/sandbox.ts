import { z } from "zod";

/**
 * How an agent is sandboxed (src/sandbox/): `auto` where the machine can (otherwise unsandboxed,
 * said once), `strict` refuses to start without one, `off` runs it as the person's user does.
 */
export const SandboxModeSchema = z.enum(["auto", "strict", "off"]);
export type SandboxMode = z.infer<typeof SandboxModeSchema>;

/**
 * What a sandboxed agent reaches of the network: everything; only `allowHosts` (and its CLI's
 * model API), through troupe's proxy; or only the daemon's socket.
 */
export const NetworkPolicySchema = z.enum(["all", "allow", "none"]);
export type NetworkPolicy = z.infer<typeof NetworkPolicySchema>;

/** One entry of `allowHosts`: a name or `*.` and a domain, an IPv4 or a bracketed IPv6 address, and an optional port. */
export const HOST_RULE = /^(?:(?:\*\.)?[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `sandbox` in the user config, the workspace config and profiles. Paths are absolute, or start with `~/`. */
export const SandboxConfigSchema = z.object({
  mode: SandboxModeSchema.optional(),
  network: NetworkPolicySchema.optional(),
  /**
   * The hosts network `allow` reaches: `example.com` (that name), `*.example.com` (its subdomains),
   * either with `:PORT` (that port only), or an IP address. The CLI's model API host is added.
   */
  allowHosts: z.array(z.string().regex(HOST_RULE, "a host (example.com, *.example.com, 10.0.0.1 or [::1]), optionally with :PORT")).optional(),
  /** More paths readable inside (a package cache, a toolchain under HOME). */
  allowRead: z.array(z.string().min(1)).optional(),
  /** More paths writable inside; each must exist. */
  allowWrite: z.array(z.string().min(1)).optional(),
  /** Variables of the spawning environment kept inside that are dropped by default (SSH_AUTH_SOCK, GH_TOKEN, ...). */
  allowEnv: z.array(z.string().min(1)).optional(),
});
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;

/** The sandbox's note of an agent whose first session has not started yet (its settings are known, not whether they hold). */
export const SANDBOX_NOT_STARTED = "not started yet";

/** What an agent's current session runs in, as `troupe ls --json` and the API show it. */
export const AgentSandboxSchema = z.object({
  /** It runs in a sandbox now. */
  sandboxed: z.boolean(),
  mode: SandboxModeSchema,
  network: NetworkPolicySchema,
  /** Why it is not sandboxed (mode `auto` on a machine without one, or `off`); null when it is. */
  note: z.string().nullable(),
});
export type AgentSandbox = z.infer<typeof AgentSandboxSchema>;
