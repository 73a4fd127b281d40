/**
 * What Ink and its text helpers (wrap-ansi, cli-truncate, slice-ansi) get for `string-width` in
 * the compiled binary (the build's plugin points their imports here): the same widths, without
 * the package's cost at the first frame. string-width tests every non-ASCII grapheme against
 * `/^\p{RGI_Emoji}$/v`, a regular expression JSC takes ~20 ms and ~8 MB to compile on first use
 * (the dashboard's first frame has `·`, `─` and status symbols). Text made only of code points
 * that are each a grapheme of their own and measured by their East Asian Width alone (SIMPLE,
 * held code point by code point against the package in tests/runtime/bun/string-width.test.ts)
 * is summed here; anything else goes to the package.
 */
import packageStringWidth, { type Options } from "string-width";
import stripAnsi from "strip-ansi";
import { eastAsianWidth } from "get-east-asian-width";

/** Inclusive UTF-16 ranges of visible, never-joining BMP code points (Latin, Greek, Cyrillic, punctuation, symbols, box drawing, CJK). */
export const SIMPLE: readonly (readonly [number, number])[] = [
  [0xa0, 0xac], // Latin-1 without the soft hyphen (a format character)
  [0xae, 0x2ff],
  [0x3a3, 0x482], // Greek and Cyrillic up to the Cyrillic combining marks
  [0x48a, 0x52f],
  [0x2010, 0x2027], // dashes, quotes, bullets, ellipsis
  [0x2030, 0x205e],
  [0x20a0, 0x20c1], // currency signs
  [0x2100, 0x218b], // letterlike symbols, number forms
  [0x2190, 0x2429], // arrows, operators, technical symbols, control pictures
  [0x2460, 0x2b73], // enclosed alphanumerics, box drawing, blocks, shapes, symbols, dingbats
  [0x2b76, 0x2bff],
  [0x3000, 0x3029], // CJK punctuation (0x302a-0x302f combine)
  [0x3030, 0x303f],
  [0x3041, 0x3096], // kana (0x3099-0x309a combine)
  [0x309b, 0x30ff],
  [0x4e00, 0x9fff], // CJK ideographs
  [0xff01, 0xff9d], // full- and halfwidth forms (0xff9e-0xff9f extend)
  [0xffe0, 0xffe6],
];

/** Whether UTF-16 unit `c` is in SIMPLE (a code point of its own, a grapheme of its own, visible). */
export function isSimple(c: number): boolean {
  for (const [from, to] of SIMPLE) {
    if (c < from) return false;
    if (c <= to) return true;
  }
  return false;
}

const NARROW = { ambiguousAsWide: false };
const WIDE = { ambiguousAsWide: true };

export default function stringWidth(input: string, options: Options = {}): number {
  if (typeof input !== "string" || options.countAnsiEscapeCodes) return packageStringWidth(input, options);
  const text = stripAnsi(input);
  const eaw = options.ambiguousIsNarrow === false ? WIDE : NARROW;
  let width = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e) width++;
    else if (isSimple(c)) width += eastAsianWidth(c, eaw);
    else return packageStringWidth(input, options);
  }
  return width;
}
