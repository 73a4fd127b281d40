import type { EndpointMethods, TroupeClient } from "../../client/client.ts";
import type { Attached } from "../../client/attach.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { Initiative } from "../../protocol/work.ts";
import type { DiffLine } from "../../protocol/review.ts";
import type { LineParser } from "../../output/lines.ts";
import type { Workspace } from "../../workspace.ts";
import type { Source } from "../../client/sources.ts";

/**
 * The daemon's API as the dashboard sees it: every endpoint of the table (client.ts derives the
 * methods from it, so a new endpoint is the dashboard's to call with no list to edit here), and
 * the event stream the mirror reads. Tests pass a fake of the same type.
 */
export type DashboardClient = EndpointMethods & Pick<TroupeClient, "events" | "openEvents">;

/** What the views call: the daemon's API without its event stream (the mirror reads that). */
type DashboardActions = Omit<DashboardClient, "events" | "openEvents">;

/** The work calls that start (or stop starting) paid agents, as `troupe detail` and `troupe dispatch` make them. */
export interface WorkRuns {
  detail: (phaseRef: string) => Promise<Agent>;
  dispatch: (initiativeRef: string) => Promise<Initiative>;
  stopDispatch: (initiativeRef: string) => Promise<Initiative>;
}

/** A provider as the new-agent dialog offers it. */
export interface ProviderChoice {
  name: string;
  displayName: string;
  installed: boolean;
  version?: string;
  /** How to install it, shown for the ones that are not. */
  install: string;
}

/** What the dashboard needs from outside its own code; each has a real default in mount.tsx. */
export interface DashboardDeps {
  client: DashboardActions;
  /** With several sources: one source's own client, by its label (a new agent starts there). */
  clientAt?: (label: string) => DashboardActions;
  workspace: string;
  parserFor: (provider: string) => LineParser;
  listProviders: () => Promise<ProviderChoice[]>;
  /** The agent's diff as lines with their files and numbers, computed by its own daemon. */
  loadDiff: (agent: Agent) => Promise<DiffLine[]>;
  runs: WorkRuns;
  /**
   * Opens `text` in $EDITOR (a temp file named after `name`) and returns the saved text; the
   * caller hands the terminal over first (Ink's suspendTerminal).
   */
  editText: (text: string, name: string) => Promise<string>;
  /**
   * Takes the agent over on this terminal (`troupe attach`: the provider's interactive CLI, until
   * it exits); the caller hands the terminal over first. The agent as it is after.
   */
  attach: (agentId: string) => Promise<Attached>;
  /** Environment passed to agents spawned from the dashboard. */
  env: Record<string, string>;
}

/** What `troupe` (no command) hands the dashboard. */
export interface RunOptions {
  client: TroupeClient;
  /** This workspace; null when the sources are remotes only. */
  workspace: Workspace | null;
  /** The environment agents spawned from the dashboard get. */
  env: Record<string, string>;
  /** Several sources to follow (`--remote`, `-A`, several `--workspace`): `client` and `workspace` are then the first's. */
  sources?: readonly Source[];
}
