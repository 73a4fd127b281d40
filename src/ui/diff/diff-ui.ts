export interface DiffState {
  /** What the diff is of (an agent or initiative id): a late answer for another is dropped. */
  key: string;
  title: string;
  lines: string[] | null;
  error: string | null;
  top: number;
}

export type DiffAction =
  /** Opens the diff view over the current one (`ui-state.ts` pushes it on the view stack). */
  | { type: "diffOpen"; key: string; title: string }
  | { type: "diffLoaded"; key: string; lines: string[] }
  | { type: "diffFailed"; key: string; error: string }
  | { type: "diffScroll"; top: number };

export function diffReducer(d: DiffState | null, action: DiffAction): DiffState | null {
  switch (action.type) {
    case "diffOpen":
      return { key: action.key, title: action.title, lines: null, error: null, top: 0 };
    case "diffLoaded":
      if (d?.key !== action.key) return d;
      return { ...d, lines: action.lines, error: null };
    case "diffFailed":
      if (d?.key !== action.key) return d;
      return { ...d, error: action.error };
    case "diffScroll":
      if (!d) return d;
      return { ...d, top: Math.max(0, action.top) };
  }
}
