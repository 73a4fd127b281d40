/**
 * What a remote says in its own words (its HELLO's error, its version, a FAIL's message, the last
 * line ssh or its shell wrote) is untrusted: it is cut here to a line's worth before it goes into
 * a message (a far end once sent 100 KB, all of it printed). Escapes and controls are taken out
 * where the message is shown, by the one sanitiser every output uses (`sanitizeBlock` in
 * src/output/sanitize.ts, applied by the CLI's `Sink.write`; the dashboard's `sanitize`).
 */
export const REMOTE_TEXT_MAX = 500;

/** `text` cut to `REMOTE_TEXT_MAX` characters, with an ellipsis when it was longer. */
export function remoteText(text: string): string {
  // String(): a frame's JSON is cast, not checked, so a "string" may be anything at run time
  const s = String(text);
  return s.length > REMOTE_TEXT_MAX ? `${s.slice(0, REMOTE_TEXT_MAX - 1)}…` : s;
}
