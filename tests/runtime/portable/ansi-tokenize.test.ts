import { expect, test } from "bun:test";
import { styledCharsFromTokens, styledCharsToString, tokenize as packageTokenize } from "@alcalzone/ansi-tokenize";
import { tokenize } from "../../../src/runtime/portable/ansi-tokenize.ts";
import { SIMPLE } from "../../../src/runtime/portable/string-width.ts";

// The compiled binary hands Ink this tokenize in place of the package's (src/runtime/bun/compile.ts):
// it must give the package's tokens for every string and every `endChar`.

const same = (s: string, endChar?: number) => expect({ s, endChar, t: tokenize(s, endChar) }).toEqual({ s, endChar, t: packageTokenize(s, endChar) });

test("every SIMPLE code point, alone, styled and side by side, tokenizes as the package does", () => {
  const chars = SIMPLE.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCharCode(from + i)));
  for (const ch of chars) same(`\u001b[1;36m${ch}\u001b[22;39m`);
  for (let i = 0; i < chars.length; i += 500) same(chars.slice(i, i + 500).join(""));
});

test("a dashboard row: styles, dots, symbols and a cut at a column", () => {
  const row = "\u001b[7m\u001b[1m› \u001b[32m●\u001b[39m \u001b[33m\u001b[1m!\u001b[22m ada running \u001b[90m 42s · 3 files 日本\u001b[39m\u001b[22m\u001b[27m";
  for (const endChar of [undefined, 0, 1, 5, 20, 38, 39, 40, 200]) same(row, endChar);
});

test("random text of escapes, SIMPLE code points and everything the package handles itself", () => {
  const pool = [
    "a", "Z", " ", "~", "·", "─", "│", "●", "✓", "…", "→", "日", "Ａ", "é", "ж", "£",
    "\u001b[31m", "\u001b[39m", "\u001b[1;3;4m", "\u001b[38;5;208m", "\u001b[48;2;10;20;30m", "\u001b[0m", "\u001b[m", "\u001b[22m",
    // the package's own: invalid or other escapes, controls, marks, emoji, Hangul, C1 CSI, links, a lone ESC
    "\u001b[2J", "\u001b[31", "\u001b", "\u001b]8;;https://x.y\u0007", "\u001b]8;;\u0007", "\u009b31m", "\u0301", "\u200d", "\ufe0f",
    "👍", "🏽", "🇫", "가", "\u1100", "\t", "\n", "\r", "\u0000", "\u00ad", "\ud800",
  ];
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  for (let i = 0; i < 5_000; i++) {
    const s = Array.from({ length: 1 + rand(16) }, () => pool[rand(pool.length)]).join("");
    same(s);
    same(s, rand(20));
    // and what Ink builds from the tokens: styled cells, and a string again
    expect(styledCharsToString(styledCharsFromTokens(tokenize(s)))).toBe(styledCharsToString(styledCharsFromTokens(packageTokenize(s))));
  }
});
