import { LOCAL_HOST, type HostAccount } from "../protocol/host.ts";

/**
 * Where a ready task runs in the workspace's pool of hosts (docs/remotes.md, "Hosts as a pool"),
 * as a pure function of what dispatch knows of each host: a host the person pinned the task (or
 * its phase) to, else one that is reachable, has a free slot, has the task's provider and an
 * account of it that lasts the task. This machine first among those (it has the repository: no
 * push, no fetch), then the host with the most free slots. A task that fits nowhere waits, with
 * why; the choice is recorded with why (the task's `placement`).
 */

/** A host as placement sees it. */
export interface HostSlots {
  name: string;
  slots: number;
  /** Dispatched tasks under way there (every initiative's), and those the pass placed. */
  used: number;
  reachable: boolean;
  /** Why it is unreachable, in one line. */
  error: string | null;
  /** The providers its daemon finds. */
  providers: string[];
  accounts: Pick<HostAccount, "provider" | "status" | "runsOutAt">[];
}

export type Placement = { host: string; why: string } | { wait: string };

export interface PlaceArgs {
  provider: string;
  /** The task's pin, else its phase's; null: dispatch chooses. */
  pin: string | null;
  /** How long the task is expected to take, and now (epoch ms): an account forecast to run out sooner is a last resort. */
  expectedMs: number;
  now: number;
}

const slotsText = (h: HostSlots) => `${h.used}/${h.slots}`;

/** What the host lacks to run the task's provider, or null when it can. */
function lack(h: HostSlots, a: PlaceArgs): string | null {
  if (!h.reachable) return `${h.name} is unreachable${h.error ? ` (${h.error})` : ""}`;
  if (!h.providers.includes(a.provider)) return `${h.name} has no ${a.provider}`;
  const own = h.accounts.filter((x) => x.provider === a.provider);
  // no account there: the CLI's own login is used
  if (own.length && !own.some((x) => x.status === "available")) return `${h.name}'s ${a.provider} accounts are all out`;
  return null;
}

/** Has an account of the provider that lasts the task, or none at all (the CLI's own login). */
function lasts(h: HostSlots, a: PlaceArgs): boolean {
  const own = h.accounts.filter((x) => x.provider === a.provider && x.status === "available");
  return !own.length || own.some((x) => x.runsOutAt === null || x.runsOutAt > a.now + a.expectedMs);
}

export function place(hosts: readonly HostSlots[], a: PlaceArgs): Placement {
  if (a.pin !== null) {
    const h = hosts.find((x) => x.name === a.pin);
    if (!h) return { wait: `pinned to ${a.pin}, which is not a host of the pool ('troupe hosts' lists them)` };
    const why = lack(h, a);
    if (why) return { wait: `pinned to ${h.name}: ${why}` };
    if (h.used >= h.slots) return { wait: `waits for a free slot on ${h.name} (${slotsText(h)}), which it is pinned to` };
    return { host: h.name, why: `pinned to ${h.name} (${h.slots - h.used} of ${h.slots} slots free)` };
  }
  const able = hosts.filter((h) => lack(h, a) === null);
  if (!able.length) return { wait: `no host can run it: ${hosts.map((h) => lack(h, a)).join("; ")}` };
  const free = able.filter((h) => h.used < h.slots);
  if (!free.length) return { wait: `waits for a free slot (${able.map((h) => `${h.name} ${slotsText(h)}`).join(", ")})` };
  const rank = (h: HostSlots) => (lasts(h, a) ? 0 : 2) + (h.name === LOCAL_HOST ? 0 : 1);
  const best = free.reduce((b, h) => (rank(h) < rank(b) || (rank(h) === rank(b) && h.slots - h.used > b.slots - b.used) ? h : b));
  const parts = [`${best.slots - best.used} of ${best.slots} slots free`, `has ${a.provider}`];
  if (best.name === LOCAL_HOST) parts.push("and the repository");
  const full = able.filter((h) => h !== best && h.used >= h.slots).map((h) => `${h.name} ${slotsText(h)}`);
  if (full.length) parts.push(`(full: ${full.join(", ")})`);
  if (!lasts(best, a)) parts.push(`(its ${a.provider} accounts may run out within the task: no host has one that lasts)`);
  return { host: best.name, why: `${best.name}: ${parts.join(", ")}` };
}
