import type { AgentRecord } from "../store/index.ts";
import type { UsageWindow } from "../protocol/output.ts";
import type { FailoverHook } from "./lifecycle/end-patch.ts";

/**
 * What the agents need of the user's accounts (src/accounts/ implements it; the daemon passes it
 * in `AgentDeps.accounts`). Without one, every agent runs on the spawning environment.
 */
export interface AccountPort {
  /**
   * The account a new agent of `provider` takes: `pinned` (a name or id), else the least recently
   * used available one (with `needMs`, the run's expected duration: one forecast to last it, if
   * any does); null when the provider has no accounts. Throws when none is available: no agent is
   * ever started on a spent account.
   */
  choose(provider: string, pinned: string | null, needMs?: number | null): string | null;
  /** Records the usage windows a run on the account reported (its forecast). */
  usage(accountId: string, windows: UsageWindow[]): void;
  /**
   * The environment of the agent's next run: `clientEnv` with its account's credential in place of
   * the provider's own variables. An agent whose account is spent (or gone) moves to an available
   * one first (recorded, announced); throws when none is.
   */
  envFor(rec: AgentRecord, clientEnv: Record<string, string>): Record<string, string>;
  /** When the first spent account of `provider` comes back; null when none is spent with a known reset. */
  earliestReset(provider: string): number | null;
  /** Failover on a spent quota or a refused credential, inside the lifecycle's decision at a run's end. */
  failover: FailoverHook;
}
