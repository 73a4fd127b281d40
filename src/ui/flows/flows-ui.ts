import type { Flow } from "../../protocol/flow.ts";

/** The flows view: loaded when it opens and after each action (flows publish no events). */
export interface FlowsUi {
  list: readonly Flow[] | null;
  error: string | null;
  /** A flow name. */
  selected: string | null;
}

export type FlowsAction =
  | { type: "flowsLoaded"; flows: readonly Flow[] }
  | { type: "flowsFailed"; error: string }
  | { type: "flowSelect"; name: string | null };

export const initialFlows: FlowsUi = { list: null, error: null, selected: null };

export function flowsReducer(f: FlowsUi, action: FlowsAction): FlowsUi {
  switch (action.type) {
    case "flowsLoaded":
      return { ...f, list: action.flows, error: null };
    case "flowsFailed":
      return { ...f, error: action.error };
    case "flowSelect":
      return f.selected === action.name ? f : { ...f, selected: action.name };
  }
}

/** Run a flow now (it starts a paid agent). */
export interface FlowRunModal {
  kind: "flow-run";
  name: string;
  busy: boolean;
}

/** The flows view's dialogs (`flow-dialogs.tsx`). */
export type FlowModal = FlowRunModal;
