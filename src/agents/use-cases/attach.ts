import type { Attachment } from "../../protocol/api-agents.ts";
import type { Agent } from "../../protocol/entities.ts";
import { REMOVE_MARGIN_MS } from "../cleanup/remove-agent.ts";
import { findAgent } from "../find-agent.ts";
import { KILL_GRACE_MS } from "../processes/stopper.ts";
import type { AgentParts } from "../runtime.ts";
import { Attachments } from "../sessions/attach.ts";

type AttachParts = Pick<AgentParts, "ws" | "store" | "bus" | "log" | "binDir" | "accounts" | "envs" | "watcher" | "stopper" | "relaunch" | "launches" | "troupe">;

/** `troupe attach`: the person takes an agent's session over interactively (src/agents/sessions/attach.ts). */
export class AttachAgent {
  private readonly attachments: Attachments;

  constructor(private readonly d: AttachParts) {
    this.attachments = new Attachments({
      ...d,
      leftovers: (id) => d.stopper.waitGone(id, KILL_GRACE_MS + REMOVE_MARGIN_MS),
      resuming: (id) => d.launches.isResuming(id),
      runEnv: (rec, env) => (d.accounts ? d.accounts.envFor(d.store.agents.get(rec.id) ?? rec, env) : env),
      restoreWorktree: (rec) => d.relaunch.restoreWorktree(rec),
    });
  }

  /** Opens the session the person's terminal runs (see Attachments.begin). */
  attach(ref: string): Promise<Attachment> {
    return this.d.launches.track(this.attachments.begin(findAgent(this.d.store, ref)));
  }

  /** The attached session's interactive CLI runs as `pid`. */
  attachStarted(ref: string, session: number, pid: number): Agent {
    return this.attachments.started(findAgent(this.d.store, ref), session, pid);
  }

  /** The attached session's interactive CLI exited: the agent goes back to its earlier status. */
  detach(ref: string, session: number, exitCode: number | null): Promise<Agent> {
    return this.attachments.end(findAgent(this.d.store, ref), session, exitCode);
  }
}
