import type { ReviewDelivery } from "../protocol/review.ts";
import type { AgentRecord } from "../store/agents.ts";
import { assertNever } from "../errors.ts";

/**
 * How a sent review reaches the agent, from its status when it is sent: the message is queued
 * either way (src/messages/); this says who takes it and when, and whether the review service
 * resumes the agent with it (`resumed`), as `r` would.
 */
export function deliveryOf(rec: Pick<AgentRecord, "name" | "status">, canResume: boolean): { delivery: ReviewDelivery; note: string } {
  const { name, status } = rec;
  switch (status) {
    case "starting":
    case "running":
      return { delivery: "live", note: `sent to ${name} while it runs: it takes the review in this run (Claude Code: as a user message), else through troupe inbox or first in its next run` };
    case "done":
    case "failed":
    case "stopped":
      return canResume
        ? { delivery: "resumed", note: `resumed ${name} with the review` }
        : { delivery: "queued", note: `queued for ${name}, which cannot be resumed now: it gets the review in its next run (or troupe inbox)` };
    case "waiting":
      return { delivery: "queued", note: `queued for ${name}, which waits for answers to its questions: the review goes with them` };
    case "attached":
      return { delivery: "queued", note: `queued for ${name}, which you have attached: it gets the review when you detach` };
    case "blocked":
      return { delivery: "queued", note: `queued for ${name}, blocked until an account is free: it gets the review when it runs again` };
    default:
      return assertNever(status);
  }
}
