import { expect, test } from "bun:test";
import packageStringWidth from "string-width";
import stringWidth, { SIMPLE } from "../../../src/runtime/portable/string-width.ts";

// The compiled binary hands Ink this stringWidth in place of the package's (src/runtime/bun/compile.ts):
// it must give the package's answer for every string, and keep to its own sums only where that holds.

const OPTIONS = [undefined, { ambiguousIsNarrow: false }, { countAnsiEscapeCodes: true }] as const;

// what a code point in SIMPLE must not be: joined to a neighbour into one grapheme, or drawn as nothing
const JOINS_OR_HIDES = /\p{Cc}|\p{Cf}|\p{Cn}|\p{Co}|\p{Cs}|\p{Mn}|\p{Me}|\p{Mc}|\p{Zl}|\p{Zp}|\p{Default_Ignorable_Code_Point}|\p{Grapheme_Extend}|\p{Regional_Indicator}|\p{Emoji_Modifier}|\p{Script=Hangul}/u;

const simpleChars = SIMPLE.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)));

test("every code point of SIMPLE stands alone and measures as the package measures it", () => {
  expect(simpleChars.length).toBeGreaterThan(20_000);
  for (const ch of simpleChars) {
    expect({ ch, joinsOrHides: JOINS_OR_HIDES.test(ch) }).toEqual({ ch, joinsOrHides: false });
    for (const opts of OPTIONS) expect({ ch, opts, w: stringWidth(ch, opts) }).toEqual({ ch, opts, w: packageStringWidth(ch, opts) });
  }
  // side by side they stay one grapheme each, as the sum assumes
  const all = simpleChars.join("");
  expect([...new Intl.Segmenter().segment(all)].length).toBe(simpleChars.length);
});

test("any string measures as the package measures it: text, ANSI styles, emoji, marks, controls", () => {
  const samples = [
    "",
    "plain ascii",
    "\u001b[36m troupe · ~/ws · 5 agents\u001b[39m",
    "─┬─│● ◐ ✓ ✗ … ↑↓ ⏸",
    "日本語のテキスト、全角ＡＢＣ",
    "e\u0301 combining, soft\u00adhyphen, zero\u200bwidth",
    "emoji 👍🏽 👨‍👩‍👧 🇫🇷 ⌚ ❤️ 1️⃣",
    "한국어 각",
    "tab\there\u0007bell\r\n",
    "\u009b31mC1 CSI\u009b0m",
  ];
  // random strings mixing SIMPLE code points with everything else the package handles itself
  const pool = [...simpleChars.filter((_, i) => i % 97 === 0), "a", " ", "\u0301", "\u200d", "\ufe0f", "👍", "🏽", "\u1100", "\u1161", "가", "\u001b[1m", "\u0000", "\u00ad"];
  let seed = 13;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  for (let i = 0; i < 2000; i++) samples.push(Array.from({ length: 1 + rand(12) }, () => pool[rand(pool.length)]).join(""));
  for (const s of samples) for (const opts of OPTIONS) expect({ s, opts, w: stringWidth(s, opts) }).toEqual({ s, opts, w: packageStringWidth(s, opts) });
});
