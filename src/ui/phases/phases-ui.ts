/** The phases view's own state: its selection (a row key, see `phase-rows.ts`), collapsed rows, and its content pane. */
export interface PhasesUi {
  selected: string | null;
  collapsed: readonly string[];
  pane: "tree" | "content";
  contentTop: number;
}

export type PhasesAction =
  | { type: "phaseSelect"; key: string | null }
  | { type: "phaseToggle"; key: string }
  | { type: "phasePane"; pane: PhasesUi["pane"] }
  | { type: "phaseScroll"; top: number };

export const initialPhases: PhasesUi = { selected: null, collapsed: [], pane: "tree", contentTop: 0 };

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
  }
}
