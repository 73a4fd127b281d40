import { FOLLOW, type Scroll } from "../output/scroll.ts";
import type { IdList } from "../agents/list-index.ts";
import { formReducer, type FormAction } from "../kit/form.ts";
import type { AgentModal } from "../agents/dialogs/modals.ts";
import type { PermissionModal } from "../permissions/permission-form.ts";
import { diffReducer, type DiffAction, type DiffState } from "../diff/diff-ui.ts";
import type { ReviewModal } from "../diff/review-modal.ts";
import { flowsReducer, initialFlows, type FlowModal, type FlowsAction, type FlowsUi } from "../flows/flows-ui.ts";
import { initialPhases, phasesReducer, type PhaseModal, type PhasesAction, type PhasesUi } from "../phases/phases-ui.ts";

export type View = "agents" | "diff" | "phases" | "flows";
type Pane = "list" | "output";

/** Every dialog's state, each declared in its feature (and drawn, keyed and sent by its `DialogSpec`, `shell/keys/dialog-registry.ts`). */
export type DialogModal = AgentModal | PhaseModal | FlowModal | PermissionModal | ReviewModal;

/** What covers the views: nothing, the help, or a dialog. */
type Modal = { kind: "none" } | { kind: "help"; top: number } | DialogModal;

export interface StatusMessage {
  text: string;
  kind: "error" | "info";
}

export interface UiState {
  /** The views as opened, bottom first: `agents` always at the bottom; esc goes back one. */
  views: readonly View[];
  pane: Pane;
  selectedId: string | null;
  /** `replace`: the kept filter shows, and the first character typed starts a new one (as in less). */
  filter: { text: string; editing: boolean; replace: boolean };
  raw: boolean;
  scroll: Scroll;
  modal: Modal;
  diff: DiffState | null;
  phases: PhasesUi;
  flows: FlowsUi;
  status: StatusMessage | null;
}

export const currentView = (ui: UiState): View => ui.views[ui.views.length - 1] ?? "agents";

export type UiAction =
  | { type: "select"; id: string | null }
  /** `from`: the selection as shown, when it differs from the one kept (the first row until one is chosen). */
  | { type: "move"; delta: number; ids: IdList; from?: string | null }
  | { type: "pane"; pane: Pane }
  | { type: "cyclePane" }
  /** Switches to a top view (`p`): the stack becomes agents, then it. */
  | { type: "view"; view: View }
  /** Back to the view below (a diff opens over the view it came from). */
  | { type: "back" }
  | { type: "toggleRaw" }
  | { type: "scroll"; scroll: Scroll }
  | { type: "filterStart" }
  | { type: "filterInput"; text: string }
  | { type: "filterBackspace" }
  | { type: "filterDone"; keep: boolean }
  | { type: "open"; modal: Exclude<Modal, { kind: "none" }> }
  | { type: "close" }
  | { type: "form"; action: FormAction }
  | { type: "busy"; busy: boolean }
  | { type: "helpScroll"; delta: number; max: number }
  | { type: "status"; status: StatusMessage | null }
  /** Each view's own state: its slice's reducer (`diff/diff-ui.ts`, `phases/phases-ui.ts`, `flows/flows-ui.ts`). */
  | DiffAction
  | PhasesAction
  | FlowsAction;

export const initialUi: UiState = {
  views: ["agents"],
  pane: "list",
  selectedId: null,
  filter: { text: "", editing: false, replace: false },
  raw: false,
  scroll: FOLLOW,
  modal: { kind: "none" },
  diff: null,
  phases: initialPhases,
  flows: initialFlows,
  status: null,
};

function select(state: UiState, id: string | null): UiState {
  if (id === state.selectedId) return state;
  // A newly selected agent opens at the end of its output, following.
  return { ...state, selectedId: id, scroll: FOLLOW };
}

export function uiReducer(state: UiState, action: UiAction): UiState {
  switch (action.type) {
    case "select":
      return select(state, action.id);
    case "move": {
      const { ids, delta } = action;
      if (!ids.length) return select(state, null);
      const from = action.from !== undefined ? action.from : state.selectedId;
      const cur = from === null ? -1 : ids.indexOf(from);
      const next = cur === -1 ? 0 : Math.max(0, Math.min(ids.length - 1, cur + delta));
      return select(state, ids.at(next)!);
    }
    case "pane":
      return { ...state, pane: action.pane };
    case "cyclePane":
      return { ...state, pane: state.pane === "list" ? "output" : "list" };
    case "view":
      return { ...state, views: action.view === "agents" ? ["agents"] : ["agents", action.view] };
    case "back":
      return state.views.length > 1 ? { ...state, views: state.views.slice(0, -1) } : state;
    case "toggleRaw":
      return { ...state, raw: !state.raw, scroll: FOLLOW };
    case "scroll":
      return { ...state, scroll: action.scroll };
    case "filterStart":
      return { ...state, filter: { text: state.filter.text, editing: true, replace: state.filter.text !== "" } };
    case "filterInput": {
      const text = action.text.replace(/\r\n?|\n/g, " ");
      return { ...state, filter: { text: (state.filter.replace ? "" : state.filter.text) + text, editing: true, replace: false } };
    }
    case "filterBackspace":
      return { ...state, filter: { text: state.filter.text.slice(0, -1), editing: true, replace: false } };
    case "filterDone":
      return { ...state, filter: { text: action.keep ? state.filter.text : "", editing: false, replace: false } };
    case "open":
      return { ...state, modal: action.modal };
    case "close":
      return { ...state, modal: { kind: "none" } };
    case "form": {
      const m = state.modal;
      if (!("form" in m)) return state; // not a dialog with a form
      const form = formReducer(m.form, action.action);
      return form === m.form ? state : { ...state, modal: { ...m, form } };
    }
    case "helpScroll": {
      const m = state.modal;
      if (m.kind !== "help") return state;
      return { ...state, modal: { kind: "help", top: Math.max(0, Math.min(action.max, m.top + action.delta)) } };
    }
    case "busy": {
      const m = state.modal;
      if (m.kind === "none" || m.kind === "help") return state;
      return { ...state, modal: { ...m, busy: action.busy } };
    }
    case "diffOpen":
    case "diffLoaded":
    case "diffFailed":
    case "diffCursor":
    case "reviewLoaded":
    case "reviewFailed":
    case "commentSaved":
    case "commentDeleted":
    case "reviewSending":
    case "reviewSent":
    case "reviewSendFailed": {
      const diff = diffReducer(state.diff, action);
      // a diff opens over the view it came from; esc goes back to it
      if (action.type === "diffOpen") return { ...state, views: currentView(state) === "diff" ? state.views : [...state.views, "diff"], diff };
      return diff === state.diff ? state : { ...state, diff };
    }
    case "phaseSelect":
    case "phaseToggle":
    case "phasePane":
    case "phaseScroll":
    case "hostsLoaded": {
      const phases = phasesReducer(state.phases, action);
      return phases === state.phases ? state : { ...state, phases };
    }
    case "flowsLoaded":
    case "flowsFailed":
    case "flowSelect": {
      const flows = flowsReducer(state.flows, action);
      return flows === state.flows ? state : { ...state, flows };
    }
    case "status":
      return { ...state, status: action.status };
  }
}
