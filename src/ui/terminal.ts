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
