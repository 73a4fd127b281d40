import { removeAgent, type RemovalDeps } from "../cleanup/remove-agent.ts";

/** `troupe rm`: a finished agent removed (src/agents/cleanup/remove-agent.ts). */
export class RemoveAgent {
  constructor(private readonly d: RemovalDeps) {}

  /** Removes a finished agent (see removeAgent): worktree, logs, records; its branch stays. */
  remove(ref: string, opts: { force?: boolean } = {}): Promise<void> {
    return removeAgent(this.d, ref, opts);
  }
}
