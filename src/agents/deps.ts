import type { Store } from "../store/index.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { Workspace } from "../workspace.ts";
import type { AccountPort } from "./accounts-port.ts";
import type { RunEnds } from "./lifecycle/run-ends.ts";

/** What the agent runtime (runtime.ts) and its use cases are built from. */
export interface AgentDeps {
  ws: Workspace;
  store: Store;
  bus: EventBus;
  log: Logger;
  /** Put first on every agent's PATH: the folder holding this troupe. */
  binDir: string;
  /** The agent's queued messages, put first in a resume's prompt (src/messages/); none without it. */
  mail?: SessionMail;
  /** The user's accounts (src/accounts/); without them every agent runs on its spawning environment. */
  accounts?: AccountPort;
  /**
   * Whether the agent waits on purpose (in `listen`, on an answer, on a worker, for the person's
   * permission): its inactivity clock stops meanwhile. Never, without it.
   */
  waitsOnPurpose?: (agentId: string) => boolean;
  /** What follows a run's end (src/services/end-of-run.ts); without it, the end is only announced on the bus. */
  ends?: RunEnds;
  /** Running sessions' input streams (src/live/): none is fed without it. */
  input?: SessionInputPort;
}

/** What an output chunk says of its session's input stream. */
export interface InputSeen {
  /** Ids of lines the CLI echoed: it took them in. */
  taken: string[];
  /** A turn ended (a result) and no line was taken after it: the CLI waits for the next line, or for the end of its input. */
  turnEnded: boolean;
}

/**
 * The input streams of running sessions (src/live/), told what the agent runtime sees: a session
 * launched (with or without a stream), what its output says, and its end (once, before what
 * follows the end of its run).
 */
export interface SessionInputPort {
  opened(agentId: string, session: number): void;
  output(agentId: string, session: number, seen: InputSeen): void;
  ended(agentId: string, session: number): void;
}

/** Messages handed to a session: claimed as its prompt is built, given back if it does not start. */
export interface SessionMail {
  /** Delivers the agent's queued messages to `session` and renders them; null when none wait. */
  claim(agentId: string, session: number): { text: string; release(): void } | null;
}
