import type { Caller } from "./services.ts";

/** A long poll ended this recently still counts: a client waiting in windows re-polls at once. */
const BETWEEN_POLLS_MS = 5_000;

/**
 * Agents in a long poll made on purpose: waiting for a worker (`handoff`, `wait_agent`) or for a
 * message (`wait_for_message`, `troupe inbox --wait`). Their inactivity clock stops meanwhile
 * (src/agents/lifecycle/limits.ts), as it does in `listen` and on their own `ask`: a supervisor
 * waiting forty minutes for its worker is not idle.
 */
export class PurposefulWaits {
  private readonly active = new Map<string, number>();
  private readonly endedAt = new Map<string, number>();

  async during<T>(caller: Caller, wait: () => Promise<T>): Promise<T> {
    if (caller.kind !== "agent") return wait();
    const id = caller.agent.id;
    this.active.set(id, (this.active.get(id) ?? 0) + 1);
    try {
      return await wait();
    } finally {
      const left = (this.active.get(id) ?? 1) - 1;
      if (left > 0) this.active.set(id, left);
      else this.active.delete(id);
      this.endedAt.set(id, Date.now());
    }
  }

  has(agentId: string): boolean {
    if (this.active.has(agentId)) return true;
    const ended = this.endedAt.get(agentId);
    if (ended === undefined) return false;
    if (Date.now() - ended <= BETWEEN_POLLS_MS) return true;
    this.endedAt.delete(agentId);
    return false;
  }
}
