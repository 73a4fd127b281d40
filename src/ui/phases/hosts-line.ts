import type { PoolHost } from "../../protocol/host.ts";

/**
 * The Phases view's line over the tree, for a workspace with a pool: each host's agents running
 * against its slots, or that it does not answer (`hosts  local 1/4 · box 0/2 · gone unreachable`).
 * Null while there is no pool (this machine alone) or it was never read.
 */
export function hostsLine(hosts: readonly PoolHost[] | null, width: number): string | null {
  if (!hosts || hosts.length < 2) return null;
  const text = `hosts  ${hosts.map((h) => `${h.name} ${h.reachable ? `${h.running ?? "?"}/${h.slots}` : "unreachable"}`).join(" · ")}`;
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}
