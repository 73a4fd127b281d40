import type { TroupeClient } from "../client/client.ts";
import type { Agent } from "../protocol/entities.ts";
import type { LineParser } from "../output/lines.ts";

/** The part of the daemon's API the dashboard uses; tests and the benchmark pass a fake. */
export type DashboardClient = Pick<
  TroupeClient,
  "health" | "listAgents" | "conversations" | "events" | "output" | "spawn" | "stop" | "resume" | "answer" | "profiles"
>;

/** A provider as the new-agent dialog offers it. */
export interface ProviderChoice {
  name: string;
  displayName: string;
  installed: boolean;
  version?: string;
  /** How to install it, shown for the ones that are not. */
  install: string;
}

/** What the dashboard needs from outside its own code; each has a real default in run.tsx. */
export interface DashboardDeps {
  client: DashboardClient;
  workspace: string;
  parserFor: (provider: string) => LineParser;
  listProviders: () => Promise<ProviderChoice[]>;
  loadDiff: (agent: Agent) => Promise<string[]>;
  /** Rings the terminal bell; a no-op when the person turned it off. */
  bell: () => void;
  /** Environment passed to agents spawned from the dashboard. */
  env: Record<string, string>;
}
