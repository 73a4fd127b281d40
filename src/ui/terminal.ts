/** Leaves the alternate screen, shows the cursor, ends bracketed paste and raw mode: the terminal as the person had it. */
export function restoreTerminal(): void {
  try {
    if (process.stdin.isTTY && process.stdin.isRaw) process.stdin.setRawMode(false);
  } catch {
    // stdin may be gone
  }
  try {
    if (process.stdout.isTTY) process.stdout.write("\x1b[?2004l\x1b[?1049l\x1b[?25h\x1b[0m");
  } catch {
    // stdout may be gone
  }
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Stops this process reading the terminal before a child is given it (Ink has already let go:
 * raw mode off, its 'readable' listener removed). Bun's stdin keeps a read pending on the
 * terminal after the last listener is gone, so a child with the inherited stdin raced us for
 * every line typed and lost some of them (the dashboard's `t`). Bun gives the terminal up only
 * on the stream's 'pause' event, and `pause()` emits it only once the stream has left the
 * 'readable' mode Ink had it in, which Node's streams settle on the next tick; and the release
 * itself runs on the tick after 'pause'. Ink's resume takes the terminal back (`ref()` and a
 * new 'readable' listener).
 */
export async function releaseStdin(): Promise<void> {
  if (!process.stdin.isTTY) return;
  await nextTurn();
  process.stdin.pause();
  await nextTurn();
}
