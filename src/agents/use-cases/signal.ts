import type { Signal } from "../../protocol/signal.ts";
import type { AgentRecord } from "../../store/index.ts";
import type { AgentDeps } from "../deps.ts";
import { recordSignal } from "../sessions/session-signal.ts";

/** `troupe signal`: an agent's own signal for its current session (src/agents/sessions/session-signal.ts). */
export class SignalAgent {
  constructor(private readonly d: Pick<AgentDeps, "store" | "log" | "ws">) {}

  /** Stores `signal` as `rec`'s own, for its current session (see recordSignal). */
  signal(rec: AgentRecord, signal: Signal): void {
    recordSignal(this.d, rec, signal);
  }
}
