import type { Dispatch } from "react";
import type { Agent } from "../../../protocol/entities.ts";
import type { Mirror } from "../../mirror/daemon-mirror.ts";
import type { KeyContext, KeyPress, KeySpec } from "./key-spec.ts";
import type { Screen } from "../../shell/screen.ts";
import type { EntitiesState } from "../../mirror/entities-state.ts";
import type { LineSource } from "../../output/scroll.ts";
import type { UiAction, UiState } from "../../shell/ui-state.ts";
import type { DashboardDeps } from "../../mirror/deps.ts";

/** What a key handler sees: the state its predecessor left, and what it may act on. */
export interface KeyEnv {
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
}

/**
 * What a handler tells the key loop. `dialog`: it opened or closed a dialog (or sent one), so
 * keys typed ahead of it are dropped: type-ahead must never approve, answer or stop something
 * the person has not seen.
 */
export type Outcome = "dialog" | void;

/** Lazygit's `Binding`: the keys, what they do, and when they cannot. */
export interface Binding {
  /** A stable name (tests, the help's de-duplication). */
  command: string;
  keys: readonly KeySpec[];
  help: string;
  /** Shown in the status bar's one-line hint. */
  hint?: string;
  /** Why the binding cannot act now (the status bar says so; the hint line leaves it out), or null. */
  disabled?: (env: KeyEnv) => string | null;
  run: (env: KeyEnv) => Outcome;
}

/** The keys of one context. `typing` takes what no binding claims (text fields, the filter). */
export interface Controller {
  context: KeyContext;
  bindings: readonly Binding[];
  typing?: (env: KeyEnv, text: KeyPress) => void;
  /** Takes text as typed or pasted in one piece (a paste never reaches the bindings). */
  paste?: (env: KeyEnv, text: string) => void;
}
