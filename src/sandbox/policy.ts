import type { NetworkPolicy, SandboxConfig, SandboxMode } from "../protocol/sandbox.ts";

/** A spawn's sandbox when nothing says: sandboxed where the machine can, with the network (docs/security.md, "The sandbox"). */
const DEFAULT_SANDBOX: { mode: SandboxMode; network: NetworkPolicy } = { mode: "auto", network: "all" };

const MODE_RANK: Record<SandboxMode, number> = { off: 0, auto: 1, strict: 2 };
const NETWORK_RANK: Record<NetworkPolicy, number> = { all: 0, allow: 1, none: 2 };

/** The stricter of two modes: `strict` over `auto` over `off`. */
export function stricterMode(a: SandboxMode, b: SandboxMode): SandboxMode {
  return MODE_RANK[a] >= MODE_RANK[b] ? a : b;
}

/** The tighter of two network policies. */
export function tighterNetwork(a: NetworkPolicy, b: NetworkPolicy): NetworkPolicy {
  return NETWORK_RANK[a] >= NETWORK_RANK[b] ? a : b;
}

/** One place a sandbox setting may come from, in precedence order (the spawn's flags first). */
export interface SandboxLayer {
  from: string;
  config: SandboxConfig;
  /**
   * The person stands behind it (a flag, the user config, a trusted workspace config): it may
   * loosen. An untrusted one (a workspace config a branch can change) only tightens.
   */
  trusted: boolean;
}

export interface SandboxSettings {
  mode: SandboxMode;
  network: NetworkPolicy;
  allowRead: string[];
  allowWrite: string[];
  allowEnv: string[];
  /** What network `allow` reaches, beside the CLI's model API (src/sandbox/hosts.ts). */
  allowHosts: string[];
  /** What an untrusted layer tried to loosen and was not taken, one line each (said in the agent's output). */
  ignored: string[];
}

/**
 * The settings the layers give. Per field a layer wins over those below it (flag > profile >
 * user config > workspace config > the default), except that an untrusted layer is taken only
 * where it tightens what the layers below it give: a stricter mode, less network. Its extra
 * paths and variables are never taken. Its hosts are taken only with the `allow` it set over
 * `all` (any list is tighter than everything), never added to a list the person gave. Nothing is
 * dropped unsaid (`ignored`).
 */
export function resolveSandbox(layers: SandboxLayer[]): SandboxSettings {
  const ignored: string[] = [];
  const upward = [...layers].reverse();
  const pick = <T extends string>(k: "mode" | "network", start: T, tighter: (a: T, b: T) => T): { value: T; from: SandboxLayer | null } => {
    let cur = start;
    let from: SandboxLayer | null = null;
    for (const l of upward) {
      const v = l.config[k] as T | undefined;
      if (v === undefined) continue;
      // the same value again still counts: a trusted layer saying what an untrusted one below
      // said is where it comes from (so the untrusted one's hosts are not taken with it)
      if (v === cur) {
        if (l.trusted) from = l;
        continue;
      }
      if (l.trusted || tighter(v, cur) === v) [cur, from] = [v, l];
      else ignored.push(`${l.from}'s sandbox.${k} "${v}" is not taken: it loosens the sandbox, and the file is not trusted (troupe trust)`);
    }
    return { value: cur, from };
  };
  const mode = pick("mode", DEFAULT_SANDBOX.mode, stricterMode).value;
  const { value: network, from: networkFrom } = pick("network", DEFAULT_SANDBOX.network, tighterNetwork);
  const allowHosts: string[] = [];
  for (const l of layers) {
    const more = l.config.allowHosts ?? [];
    if (!more.length) continue;
    if (l.trusted || (l === networkFrom && network === "allow" && !layers.some((o) => o.trusted && o.config.allowHosts?.length))) allowHosts.push(...more);
    else ignored.push(`${l.from}'s sandbox.allowHosts (${more.join(", ")}) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`);
  }
  const lists = { allowRead: [] as string[], allowWrite: [] as string[], allowEnv: [] as string[] };
  for (const l of layers) {
    for (const k of ["allowRead", "allowWrite", "allowEnv"] as const) {
      const more = l.config[k] ?? [];
      if (!more.length) continue;
      if (l.trusted) lists[k].push(...more);
      else ignored.push(`${l.from}'s sandbox.${k} (${more.join(", ")}) is not taken: it opens the sandbox, and the file is not trusted (troupe trust)`);
    }
  }
  return { mode, network, ...lists, allowHosts, ignored };
}
