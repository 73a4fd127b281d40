import type { Account, AccountKind, AccountStatus } from "../protocol/account.ts";
import { lasts, runsOutAt, usedUpUntil, type RecordedWindow } from "./forecast.ts";

/** An account as the user's file keeps it: with its secret. Never sent anywhere as is. */
export interface StoredAccount {
  id: string;
  name: string;
  provider: string;
  kind: AccountKind;
  /** `token`: given to the CLI in the provider's token variable. */
  token: string | null;
  /** `config-dir`: the CLI's config folder (its login and its sessions). */
  configDir: string | null;
  /** `env`: variables given as they are. */
  env: Record<string, string> | null;
  exhaustedUntil: number | null;
  /** Its usage windows as runs on it last reported them (src/accounts/forecast.ts); empty when its provider reports none. */
  windows: RecordedWindow[];
  /** Why the provider refused its credential (an `auth` failure of a run on it); null: never refused, or reset since. */
  refused: string | null;
  lastUsedAt: number | null;
  createdAt: number;
}

/** What the selection asks of the world: whether a config folder is still there. */
export type DirExists = (path: string) => boolean;

/**
 * Its status now: `invalid` (its config folder is gone, or the provider refused its credential
 * until the person resets it) before `exhausted` (until its reset) before `available`.
 */
export function accountStatus(a: StoredAccount, now: number, dirExists: DirExists): { status: AccountStatus; problem: string | null } {
  if (a.configDir !== null && !dirExists(a.configDir)) return { status: "invalid", problem: `config folder ${a.configDir} is missing` };
  if (a.refused !== null) return { status: "invalid", problem: a.refused };
  if (spentUntil(a, now) !== null) return { status: "exhausted", problem: null };
  return { status: "available", problem: null };
}

/** Until when its quota is spent: a limit a run hit, or a window reported used up; null when it is not. */
function spentUntil(a: StoredAccount, now: number): number | null {
  const until = Math.max(a.exhaustedUntil ?? 0, usedUpUntil(a.windows, now) ?? 0);
  return until > now ? until : null;
}

/** The public view: no secret, and an exhaustion already past reads as none. */
export function publicAccount(a: StoredAccount, now: number, dirExists: DirExists): Account {
  const { status, problem } = accountStatus(a, now, dirExists);
  return {
    id: a.id,
    name: a.name,
    provider: a.provider,
    kind: a.kind,
    status,
    exhaustedUntil: status === "exhausted" ? spentUntil(a, now) : null,
    runsOutAt: status === "available" ? runsOutAt(a.windows, now) : null,
    windows: a.windows.filter((w) => w.resetsAt > now).map(({ window, utilization, resetsAt, seenAt }) => ({ window, utilization, resetsAt, seenAt })),
    lastUsedAt: a.lastUsedAt,
    problem,
  };
}

/**
 * The provider's available account used least recently (never used first, then the oldest use;
 * ties by creation), leaving out `exclude`; null when none is available. With `needMs` (how long
 * the run is expected to take), an account forecast to run out sooner is taken only when every
 * available one is.
 */
export function leastRecentlyUsed(accounts: readonly StoredAccount[], provider: string, now: number, dirExists: DirExists, exclude: string | null = null, needMs: number | null = null): StoredAccount | null {
  const usable = accounts.filter((a) => a.provider === provider && a.id !== exclude && accountStatus(a, now, dirExists).status === "available");
  usable.sort((x, y) => (x.lastUsedAt ?? -1) - (y.lastUsedAt ?? -1) || x.createdAt - y.createdAt);
  if (needMs === null) return usable[0] ?? null;
  return usable.find((a) => lasts(a.windows, needMs, now)) ?? usable[0] ?? null;
}

/** When the provider's first exhausted account comes back (null: none is exhausted); a refused one comes back only by a reset. */
export function earliestReset(accounts: readonly StoredAccount[], provider: string, now: number): number | null {
  const resets = accounts.filter((a) => a.provider === provider && a.refused === null).flatMap((a) => spentUntil(a, now) ?? []);
  return resets.length ? Math.min(...resets) : null;
}
