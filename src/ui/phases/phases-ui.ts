import type { FormState } from "../kit/form.ts";
import type { PoolHost } from "../../protocol/host.ts";

/** The phases view's own state: its selection (a row key, see `phase-rows.ts`), collapsed rows, and its content pane. */
export interface PhasesUi {
  selected: string | null;
  collapsed: readonly string[];
  pane: "tree" | "content";
  contentTop: number;
  /** The workspace's pool as its daemon last told it (`troupe hosts`), read while the view is open; null before. */
  hosts: readonly PoolHost[] | null;
}

export type PhasesAction =
  | { type: "phaseSelect"; key: string | null }
  | { type: "phaseToggle"; key: string }
  | { type: "phasePane"; pane: PhasesUi["pane"] }
  | { type: "phaseScroll"; top: number }
  | { type: "hostsLoaded"; hosts: readonly PoolHost[] };

export const initialPhases: PhasesUi = { selected: null, collapsed: [], pane: "tree", contentTop: 0, hosts: null };

export function phasesReducer(p: PhasesUi, action: PhasesAction): PhasesUi {
  switch (action.type) {
    case "phaseSelect":
      if (p.selected === action.key) return p;
      // Another item's content starts at its top.
      return { ...p, selected: action.key, contentTop: 0 };
    case "phaseToggle": {
      const c = p.collapsed;
      const collapsed = c.includes(action.key) ? c.filter((k) => k !== action.key) : [...c, action.key];
      return { ...p, collapsed };
    }
    case "phasePane":
      return { ...p, pane: action.pane };
    case "phaseScroll":
      return { ...p, contentTop: Math.max(0, action.top) };
    case "hostsLoaded":
      return { ...p, hosts: action.hosts };
  }
}

/** A yes/no question about the work model; both start paid agents. */
export type WorkConfirm =
  | { action: "detail"; phaseId: string; title: string }
  | { action: "dispatch"; initiativeId: string; title: string };

/** Reject a proposed phase or task: a reason, and whether its agent proposes again. */
export interface RejectModal {
  kind: "reject";
  ref: string;
  title: string;
  form: FormState;
  busy: boolean;
}

export interface WorkConfirmModal {
  kind: "work-confirm";
  confirm: WorkConfirm;
  busy: boolean;
}

/** The daemon refused an edit: `text` (as saved) opens again with the error on top. */
export interface EditErrorModal {
  kind: "edit-error";
  ref: string;
  name: string;
  original: string;
  text: string;
  error: string;
  busy: boolean;
}

/** The phases view's dialogs (`phase-dialogs.tsx`). */
export type PhaseModal = RejectModal | WorkConfirmModal | EditErrorModal;
