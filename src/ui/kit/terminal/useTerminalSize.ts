import { useWindowSize } from "ink";

export interface Size {
  columns: number;
  rows: number;
}

/** The terminal's size, redrawn on resize; `fixed` pins it (tests, the benchmark). */
export function useTerminalSize(fixed?: Size): Size {
  const live = useWindowSize();
  return fixed ?? { columns: live.columns, rows: live.rows };
}
