import type { KeyInput, KeyPress } from "./key-spec.ts";

const NONE: KeyInput = { ctrl: false, shift: false, meta: false };

// What a control byte inside a text chunk is, as Ink reports it when it arrives alone.
function controlKey(c: string): KeyPress | null {
  switch (c) {
    case "\r":
      return { input: "", key: { ...NONE, return: true } };
    case "\n":
      return { input: "\n", key: NONE }; // ctrl+j
    case "\t":
      return { input: "", key: { ...NONE, tab: true } };
    case "\x7f":
    case "\b":
      return { input: "", key: { ...NONE, backspace: true } };
    case "\x1b":
      return { input: "", key: { ...NONE, escape: true } };
  }
  const code = c.charCodeAt(0);
  if (code >= 1 && code <= 26) return { input: String.fromCharCode(code + 96), key: { ...NONE, ctrl: true } };
  return null;
}

/**
 * The keys in one input event. Ink hands over text that arrived in one read (keys over a slow
 * SSH link, `tmux send-keys 'yes' Enter`, key repeat, typing before the first frame) as one
 * string, control bytes included: `"yes\r"` is the text `yes`, then Enter. Each control byte
 * becomes the key it is; the text between stays one piece (a text field inserts it at once).
 */
export function keypresses(input: string, key: KeyInput): KeyPress[] {
  // eslint-disable-next-line no-control-regex
  const single = input.length <= 1 || key.ctrl || key.meta || !/[\x00-\x1f\x7f]/.test(input);
  if (single) return [{ input, key }];
  const out: KeyPress[] = [];
  // eslint-disable-next-line no-control-regex
  for (const part of input.split(/([\x00-\x1f\x7f])/)) {
    if (!part) continue;
    if (part.length === 1 && (part < " " || part === "\x7f")) {
      const k = controlKey(part);
      if (k) out.push(k);
    } else out.push({ input: part, key: NONE });
  }
  return out;
}
