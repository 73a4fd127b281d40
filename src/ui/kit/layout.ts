/** Below this many columns the list and the output stack instead of sitting side by side. */
const STACK_BELOW = 100;

interface Box2 {
  width: number;
  height: number;
}

export interface Layout {
  stacked: boolean;
  /** Rows between the header and the bottom lines. */
  main: Box2;
  list: Box2;
  output: Box2;
}

/** Where everything goes for a terminal of `columns`×`rows`, with `extraRows` lines taken by banners and bars. */
export function layout(columns: number, rows: number, extraRows: number, agentCount: number): Layout {
  const mainHeight = Math.max(3, rows - 2 - extraRows);
  const main = { width: columns, height: mainHeight };
  if (columns >= STACK_BELOW) {
    const listWidth = Math.max(40, Math.min(72, Math.floor(columns * 0.45)));
    return {
      stacked: false,
      main,
      list: { width: listWidth, height: mainHeight },
      output: { width: columns - listWidth - 1, height: mainHeight },
    };
  }
  // Stacked: the list takes what its rows need, up to 40% of the height, at least 3 rows.
  const listHeight = Math.max(3, Math.min(agentCount + 1, Math.floor(mainHeight * 0.4)));
  return {
    stacked: true,
    main,
    list: { width: columns, height: listHeight },
    output: { width: columns, height: Math.max(1, mainHeight - listHeight) },
  };
}
