import type { Agent } from "../../protocol/entities.ts";
import type { FailureClass } from "../../protocol/failure.ts";
import { findAgent } from "../find-agent.ts";
import type { AgentParts } from "../runtime.ts";

type RetryParts = Pick<AgentParts, "store" | "lifecycle">;

/** Runs put through the retry policy from outside a run's end (src/agents/lifecycle/run-lifecycle.ts). */
export class RetryRun {
  constructor(private readonly d: RetryParts) {}

  /**
   * Fails the agent's ended run with `failure` and `evidence` through the retry policy: the work
   * model reports a proposal file that does not parse this way (`bad_output`: the session is
   * resumed once with `evidence` as what is malformed). The agent is `starting` when a retry follows.
   */
  failRunWith(ref: string, failure: FailureClass, evidence: string): Agent {
    return this.d.lifecycle.failRun(findAgent(this.d.store, ref), failure, evidence);
  }

  /** Blocked agents of `provider` retry now (`troupe account add` gave them an account); how many. */
  wakeBlocked(provider: string): number {
    return this.d.lifecycle.wakeBlocked(provider);
  }
}
