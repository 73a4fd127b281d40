import type { Dispatch } from "react";
import type { Agent } from "../../../protocol/entities.ts";
import type { Mirror } from "../../mirror/daemon-mirror.ts";
import type { EntitiesState } from "../../mirror/entities-state.ts";
import type { DashboardDeps } from "../../mirror/deps.ts";
import type { LineSource } from "../../mirror/output-store.ts";
import type { Screen } from "../screen.ts";
import type { UiAction, UiState } from "../ui-state.ts";

/** What a key handler sees: the state its predecessor left, and what it may act on. Built by `useDashboard`. */
export interface DashboardEnv {
  ui: UiState;
  /** Derived from `ui` and the mirror: the list as shown, the selection, the sizes. */
  screen: Screen;
  entities: EntitiesState;
  dispatch: Dispatch<UiAction>;
  mirror: Mirror;
  deps: DashboardDeps;
  /** The selected agent, if any (`screen.selected`). */
  selected: Agent | null;
  /** The selected agent's output, read when a key needs it. */
  output: () => LineSource | null;
  quit: () => void;
  /** Hands the terminal to `fn` (an editor): Ink leaves the alternate screen and redraws after. */
  suspend: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Routes between features: another feature's view opened from a key (the phases view opens a
   * diff through these, never importing the diff feature).
   */
  openAgentDiff: (agent: Agent, title: string) => void;
  openTextDiff: (key: string, title: string, text: Promise<string>) => void;
}

// The kit's bindings and the features' handlers run in this env (kit/keys/binding.ts, `Register`).
declare module "../../kit/keys/binding.ts" {
  interface Register {
    env: DashboardEnv;
  }
}
