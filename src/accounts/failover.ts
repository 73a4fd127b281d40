import { TroupeError } from "../errors.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { AgentRecord, Store } from "../store/index.ts";
import { toAgent } from "../store/agents.ts";
import type { Failure } from "../protocol/failure.ts";
import type { UsageWindow } from "../protocol/output.ts";
import type { Action } from "../agents/lifecycle/retry-policy.ts";
import type { AccountPort } from "../agents/accounts-port.ts";
import { getProvider } from "../../providers/index.ts";
import type { Provider } from "../../providers/types.ts";
import type { AccountStore } from "./store.ts";
import type { StoredAccount } from "./select.ts";
import { withAccount } from "./env.ts";
import { carrySession, sessionHome } from "./carry.ts";

/** How long an account stays spent when the provider does not say when it resets. */
const DEFAULT_EXHAUSTION_MS = 60 * 60 * 1000;

export interface AccountsDeps {
  store: Store;
  bus: EventBus;
  log: Logger;
  accounts: AccountStore;
  /** The agent's saved spawning environment (where a CLI's default config folder is found). */
  loadEnv(rec: AgentRecord): Record<string, string>;
}

/**
 * The user's accounts as the agents use them: the account each new agent takes, its credential in
 * every run's environment, and failover on a spent quota (`usage_limit`) or a refused credential
 * (`auth`): the account is recorded as spent until its reset, or as refused until the person
 * resets it; the agent moves to the least recently used available account (its session carried
 * over when the accounts keep sessions in different folders), or, with none left, is `blocked`
 * until the first reset (failed when none of them is merely spent).
 */
export class AccountBroker implements AccountPort {
  constructor(private readonly d: AccountsDeps) {}

  choose(provider: string, pinned: string | null, needMs: number | null = null): string | null {
    return this.d.accounts.take(provider, { pinned, needMs })?.id ?? null;
  }

  usage(accountId: string, windows: UsageWindow[]): void {
    this.d.accounts.recordUsage(accountId, windows);
  }

  envFor(rec: AgentRecord, clientEnv: Record<string, string>): Record<string, string> {
    const provider = getProvider(rec.provider);
    if (!provider) return clientEnv;
    // an agent's worker without its agent's account (another provider's) runs on none: it never
    // takes one of the person's by itself (Spawner.inheritedAccount)
    if (rec.accountId === null && rec.parentId !== null) return clientEnv;
    let account: StoredAccount | null = null;
    if (rec.accountId) {
      try {
        account = this.d.accounts.take(rec.provider, { pinned: rec.accountId });
      } catch (err) {
        if (!(err instanceof TroupeError) || (err.code !== "accounts_exhausted" && err.code !== "account_not_found")) throw err;
      }
    }
    if (!account) {
      account = this.d.accounts.take(rec.provider, { exclude: rec.accountId });
      if (account) this.switchTo(rec, provider, account, "its account was spent or removed");
    }
    return account ? withAccount(provider, account, clientEnv) : clientEnv;
  }

  earliestReset(provider: string): number | null {
    return this.d.accounts.earliestReset(provider);
  }

  /** AccountPort.failover: called inside a run's end (the lifecycle's decision) on `usage_limit` or `auth`. */
  readonly failover = (rec: AgentRecord, failure: Failure): Action => {
    try {
      return this.decide(rec, failure);
    } catch (err) {
      this.d.log.error(`${rec.name}: failover after ${failure.class}`, err);
      return { kind: "fail" };
    }
  };

  private decide(rec: AgentRecord, failure: Failure): Action {
    const { accounts, log } = this.d;
    const provider = getProvider(rec.provider);
    if (!provider) return { kind: "fail" };
    const refused = failure.class === "auth";
    const until = failure.resetsAt ?? Date.now() + DEFAULT_EXHAUSTION_MS;
    if (!rec.accountId) {
      if (!accounts.hasAny(rec.provider)) return { kind: "fail" }; // no accounts: never again on the same credential
    } else if (refused) accounts.markRefused(rec.accountId, `credential refused ${new Date().toISOString()}: ${failure.evidence}`);
    else accounts.markExhausted(rec.accountId, until);
    let next: StoredAccount | null = null;
    try {
      next = accounts.take(rec.provider, { exclude: rec.accountId });
    } catch (err) {
      if (!(err instanceof TroupeError) || err.code !== "accounts_exhausted") throw err;
    }
    if (next) {
      this.switchTo(rec, provider, next, `${failure.class}: ${failure.evidence}`);
      return { kind: "retry", how: "resume", attempt: rec.attempt + 1, delayMs: 0 };
    }
    // a refused credential comes back only when the person acts; a spent quota at its reset
    const reset = accounts.earliestReset(rec.provider) ?? (refused ? null : until);
    if (reset === null) {
      log.info(`${rec.name}: no ${rec.provider} account is usable (refused or missing; see 'troupe account ls')`);
      return { kind: "fail" };
    }
    log.info(`${rec.name}: every ${rec.provider} account is spent; blocked until ${new Date(reset).toISOString()}`);
    return { kind: "blocked", attempt: rec.attempt + 1, until: reset };
  }

  /** Moves the agent to `to`: recorded, its session carried to `to`'s folder (or dropped: the next run starts afresh), announced. */
  private switchTo(rec: AgentRecord, provider: Provider, to: StoredAccount, reason: string): void {
    const { store, bus, log, accounts } = this.d;
    const from = rec.accountId ? accounts.get(rec.accountId) : null;
    let keepSession = true;
    if (rec.providerSessionId) {
      try {
        const env = this.d.loadEnv(rec);
        const a = sessionHome(provider, from ? withAccount(provider, from, env) : env);
        const b = sessionHome(provider, withAccount(provider, to, env));
        keepSession = a === b || (a !== null && b !== null && carrySession(a, b, rec.providerSessionId));
      } catch (err) {
        log.warn(`${rec.name}: carrying its session to account ${to.name}`, err);
        keepSession = false;
      }
    }
    const updated = store.agents.update(rec.id, { accountId: to.id, ...(!keepSession && { providerSessionId: null }) });
    log.info(`${rec.name}: account ${from?.name ?? "(spawning environment)"} → ${to.name} (${reason})${keepSession ? "" : "; its session stays behind, the task starts afresh in its worktree"}`);
    bus.publish({ type: "agent:account_switched", agentId: rec.id, from: from && { id: from.id, name: from.name }, to: { id: to.id, name: to.name }, reason });
    bus.publish({ type: "agent:updated", agent: toAgent(updated) });
  }
}
