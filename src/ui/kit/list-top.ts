/** The first row to show so that `index` is visible, moving `prevTop` as little as possible. */
export function listTop(prevTop: number, index: number, count: number, rows: number): number {
  if (rows <= 0) return 0;
  let top = Math.min(prevTop, Math.max(0, count - rows));
  if (index < top) top = index;
  else if (index >= top + rows) top = index - rows + 1;
  return Math.max(0, top);
}
