import type { Store } from "../store/index.ts";
import type { EventBus } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { Workspace } from "../workspace.ts";

/** What the agent service and its session watcher are built from. */
export interface AgentDeps {
  ws: Workspace;
  store: Store;
  bus: EventBus;
  log: Logger;
  /** Put first on every agent's PATH: the folder holding this troupe. */
  binDir: string;
}
