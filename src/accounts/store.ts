import { existsSync, readFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { TroupeError, errorMessage } from "../errors.ts";
import { writePrivateFile } from "../file-modes.ts";
import { AccountKindSchema } from "../protocol/account.ts";
import type { AccountPaths } from "./paths.ts";
import { withUserLock } from "./user-lock.ts";
import { UsageWindowSchema, type UsageWindow } from "../protocol/output.ts";
import { recordWindows } from "./forecast.ts";
import { earliestReset, leastRecentlyUsed, type DirExists, type StoredAccount } from "./select.ts";

const StoredAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  kind: AccountKindSchema,
  token: z.string().nullable(),
  configDir: z.string().nullable(),
  env: z.record(z.string(), z.string()).nullable(),
  exhaustedUntil: z.number().nullable(),
  // absent in files written before usage windows were recorded
  windows: z.array(UsageWindowSchema.extend({ seenAt: z.number(), first: z.object({ utilization: z.number(), seenAt: z.number() }) })).default([]),
  // absent in files written before credentials could be refused
  refused: z.string().nullable().default(null),
  lastUsedAt: z.number().nullable(),
  createdAt: z.number(),
});
const FileSchema = z.object({ version: z.literal(1), accounts: z.array(StoredAccountSchema) });

export type NewAccount = Pick<StoredAccount, "name" | "provider" | "kind" | "token" | "configDir" | "env">;

/**
 * The user's accounts (`accounts.json` in the user's state folder, 0600), shared by every daemon
 * of the user: each change is a read-modify-write under the user's flock, so an exhaustion one
 * daemon records is what the next selection of any other reads.
 */
export class AccountStore {
  constructor(
    private readonly paths: AccountPaths,
    private readonly dirExists: DirExists = existsSync,
  ) {}

  /** Every account, secrets included (for this process only). A damaged file is an error, never an empty list. */
  list(): StoredAccount[] {
    // asked first: on Deno a read of a missing file builds an error, and every spawn asks
    if (!existsSync(this.paths.file)) return [];
    let text: string;
    try {
      text = readFileSync(this.paths.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new TroupeError("internal", `cannot read ${this.paths.file}: ${errorMessage(err)}`, { cause: err });
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new TroupeError("internal", `${this.paths.file} is not JSON; fix or remove it`, { cause: err });
    }
    const parsed = FileSchema.safeParse(json);
    if (!parsed.success) throw new TroupeError("internal", `${this.paths.file} is malformed (${parsed.error.issues[0]?.message}); fix or remove it`);
    return parsed.data.accounts;
  }

  hasAny(provider: string): boolean {
    return this.list().some((a) => a.provider === provider);
  }

  get(id: string): StoredAccount | null {
    return this.list().find((a) => a.id === id) ?? null;
  }

  /** By id or by name (names are unique per user). */
  find(ref: string): StoredAccount | null {
    return byRef(this.list(), ref);
  }

  add(a: NewAccount): StoredAccount {
    return this.change((all) => {
      if (all.some((x) => x.name === a.name)) throw new TroupeError("conflict", `an account named '${a.name}' exists`);
      const stored: StoredAccount = { ...a, id: `acct_${randomBytes(6).toString("hex")}`, exhaustedUntil: null, windows: [], refused: null, lastUsedAt: null, createdAt: Date.now() };
      return [[...all, stored], stored];
    });
  }

  remove(ref: string): StoredAccount {
    return this.change((all) => {
      const found = byRef(all, ref);
      if (!found) throw new TroupeError("account_not_found", `no account '${ref}'`);
      return [all.filter((a) => a !== found), found];
    });
  }

  /**
   * Takes an account for a run of `provider`, stamping its use: `pinned` (an id or name) when it
   * is available, else the least recently used available one besides `exclude`. Null when the
   * provider has no account at all (the spawning environment's credential is used); an error
   * naming the earliest reset when it has accounts but none is available now.
   */
  take(provider: string, opts: { pinned?: string | null; exclude?: string | null; needMs?: number | null } = {}, now = Date.now()): StoredAccount | null {
    // most users have no accounts: no lock, no file for them
    if (!opts.pinned && !this.hasAny(provider)) return null;
    return this.change((all) => {
      const mine = all.filter((a) => a.provider === provider);
      let chosen: StoredAccount | null;
      if (opts.pinned) {
        chosen = mine.find((a) => a.id === opts.pinned) ?? mine.find((a) => a.name === opts.pinned) ?? null;
        if (!chosen) throw new TroupeError("account_not_found", `no ${provider} account '${opts.pinned}' (see 'troupe account ls')`);
        if (leastRecentlyUsed([chosen], provider, now, this.dirExists) === null) throw exhausted(provider, [chosen], now, `account '${chosen.name}'`);
      } else {
        if (!mine.length) return [all, null]; // removed meanwhile
        chosen = leastRecentlyUsed(mine, provider, now, this.dirExists, opts.exclude ?? null, opts.needMs ?? null);
        if (!chosen) throw exhausted(provider, mine, now, `every ${provider} account`);
      }
      const used = { ...chosen, lastUsedAt: now };
      return [all.map((a) => (a.id === used.id ? used : a)), used];
    });
  }

  /** Records that the account's quota is spent until `until` (a later reset another daemon saw wins). */
  markExhausted(id: string, until: number): void {
    this.change((all) => [all.map((a) => (a.id === id ? { ...a, exhaustedUntil: Math.max(until, a.exhaustedUntil ?? 0) } : a)), undefined]);
  }

  /** Records the usage windows a run on the account reported (src/accounts/forecast.ts). */
  recordUsage(id: string, windows: UsageWindow[], now = Date.now()): void {
    this.change((all) => [all.map((a) => (a.id === id ? { ...a, windows: recordWindows(a.windows, windows, now) } : a)), undefined]);
  }

  /** Records that the provider refused the account's credential (`why`): no run takes it until the person resets it. */
  markRefused(id: string, why: string): void {
    this.change((all) => [all.map((a) => (a.id === id ? { ...a, refused: why } : a)), undefined]);
  }

  /** The person says the account works again (a new login in its folder, a quota restored early): neither spent nor refused. */
  reset(ref: string): StoredAccount {
    return this.change((all) => {
      const found = byRef(all, ref);
      if (!found) throw new TroupeError("account_not_found", `no account '${ref}'`);
      const fresh = { ...found, exhaustedUntil: null, windows: [], refused: null };
      return [all.map((a) => (a === found ? fresh : a)), fresh];
    });
  }

  /** When the provider's first spent account comes back (null: none is spent now). */
  earliestReset(provider: string, now = Date.now()): number | null {
    return earliestReset(this.list(), provider, now);
  }

  private change<T>(fn: (all: StoredAccount[]) => [StoredAccount[], T]): T {
    return withUserLock(this.paths.lock, () => {
      const [next, out] = fn(this.list());
      writePrivateFile(this.paths.file, `${JSON.stringify({ version: 1, accounts: next }, null, 2)}\n`);
      return out;
    });
  }
}

/** By id or by name (names are unique per user). */
function byRef(all: readonly StoredAccount[], ref: string): StoredAccount | null {
  return all.find((a) => a.id === ref) ?? all.find((a) => a.name === ref) ?? null;
}

function exhausted(provider: string, accounts: StoredAccount[], now: number, what: string): TroupeError {
  const reset = earliestReset(accounts, provider, now);
  const when = reset === null ? "" : ` until ${new Date(reset).toISOString()}`;
  return new TroupeError("accounts_exhausted", `${what} is spent or unusable${when} (see 'troupe account ls')`);
}
