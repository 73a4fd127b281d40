/**
 * What Ink's output pass and text wrapping get for `@alcalzone/ansi-tokenize` in the compiled
 * binary (the build's plugin points their imports here): the package itself, with a `tokenize`
 * that gives the package's tokens without its cost for the text the dashboard draws. The package
 * walks every string with `Intl.Segmenter` (graphemes), which a cold frame pays for each styled
 * row: at 1,000 agents most of the first frame's output pass. Text made of SGR escapes
 * (`ESC [ digits;... m`) and printable ASCII or SIMPLE code points (each a grapheme of its own:
 * string-width.ts) is tokenized here, each escape's tokens taken once from the package itself;
 * anything else (other escapes, controls, marks, emoji, surrogates) goes to the package whole.
 * Held to the package token by token in tests/runtime/portable/ansi-tokenize.test.ts.
 */
import { tokenize as packageTokenize } from "@alcalzone/ansi-tokenize";
import { eastAsianWidth } from "get-east-asian-width";
import { isSimple } from "./string-width.ts";

export * from "@alcalzone/ansi-tokenize";

type Token = ReturnType<typeof packageTokenize>[number];

const ESC = 0x1b;
const NARROW = { ambiguousAsWide: false };
/** Each SGR escape's tokens as the package gives them (a compound code splits into several); copied out at each use. */
const escapes = new Map<string, readonly Token[]>();

function escapeTokens(code: string): readonly Token[] {
  let tokens = escapes.get(code);
  if (tokens === undefined) {
    tokens = packageTokenize(code);
    if (escapes.size < 1_000) escapes.set(code, tokens);
  }
  return tokens;
}

/** The index just past the SGR escape at `i` (`ESC [` then digits and `;` then `m`); -1 if none starts there. */
function sgrEnd(str: string, i: number): number {
  if (str.charCodeAt(i + 1) !== 0x5b) return -1;
  for (let j = i + 2; j < str.length; j++) {
    const c = str.charCodeAt(j);
    if (c === 0x6d) return j + 1;
    if (c !== 0x3b && (c < 0x30 || c > 0x39)) return -1;
  }
  return -1;
}

/** The package's tokens for `str`, up to `endChar` visible columns, as `@alcalzone/ansi-tokenize`'s `tokenize` gives them. */
export function tokenize(str: string, endChar = Number.POSITIVE_INFINITY): Token[] {
  const ret: Token[] = [];
  let visible = 0;
  for (let i = 0; i < str.length; ) {
    const c = str.charCodeAt(i);
    if (c === ESC) {
      const end = sgrEnd(str, i);
      if (end === -1) return packageTokenize(str, endChar);
      for (const t of escapeTokens(str.slice(i, end))) ret.push({ ...t });
      i = end;
      continue;
    }
    let fullWidth = false;
    if (c < 0x20 || c > 0x7e) {
      if (!isSimple(c)) return packageTokenize(str, endChar);
      fullWidth = eastAsianWidth(c, NARROW) === 2;
    }
    ret.push({ type: "char", value: str[i]!, fullWidth });
    visible += fullWidth ? 2 : 1;
    if (visible >= endChar) break;
    i++;
  }
  return ret;
}
