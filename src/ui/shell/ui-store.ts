import { initialUi, uiReducer, type UiAction, type UiState } from "./ui-state.ts";

/**
 * The UI state outside React: `dispatch` applies the reducer at once, so keys that arrived in one
 * read each run against the state the previous one left, without waiting for a render.
 * React reads it through `useSyncExternalStore`.
 */
export interface UiStore {
  get: () => UiState;
  dispatch: (action: UiAction) => void;
  subscribe: (listener: () => void) => () => void;
}

export function createUiStore(initial?: Partial<UiState>): UiStore {
  let state: UiState = initial ? { ...initialUi, ...initial } : initialUi;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    dispatch(action) {
      const next = uiReducer(state, action);
      if (next === state) return;
      state = next;
      for (const l of listeners) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
