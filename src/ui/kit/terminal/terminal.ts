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

const ENTER_ALTERNATE_SCREEN = "\x1b[?1049h";
const CURSOR_HOME = "\x1b[H";

/**
 * Sends the cursor home each time Ink enters the alternate screen (at the start, and back from
 * `t` or `e`). The terminal keeps the cursor's place across the switch and Ink draws its first
 * frame from there: after a shell prompt that was a row down (the frame, one row too many,
 * scrolled back by luck); after text on that row (output without a newline, a prompt a slow
 * shell printed late) the header wrapped and every later frame was drawn rows off, since Ink
 * moves the cursor relative to where it thinks the last frame ended. Returns the undo.
 */
export function homeOnAlternateScreen(out: NodeJS.WriteStream): () => void {
  const write = out.write;
  const homed = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]): boolean {
    const data = typeof chunk === "string" && chunk.startsWith(ENTER_ALTERNATE_SCREEN) ? ENTER_ALTERNATE_SCREEN + CURSOR_HOME + chunk.slice(ENTER_ALTERNATE_SCREEN.length) : chunk;
    return (write as (...args: unknown[]) => boolean).call(this, data, ...rest);
  };
  out.write = homed as NodeJS.WriteStream["write"];
  return () => {
    if (out.write === homed) out.write = write;
  };
}

/** After a child had the terminal: this process reads it again (see the runtime's reclaimStdin). */
export { reclaimStdin } from "../../../runtime/process.ts";

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
