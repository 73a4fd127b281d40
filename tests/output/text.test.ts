import { describe, expect, test } from "bun:test";
import { displayWidth, fit, truncate, wrapText } from "../../src/output/text.ts";
import { sanitize, sanitizeBlock } from "../../src/output/sanitize.ts";

describe("sanitize", () => {
  test("strips colour and cursor escapes, keeps the text", () => {
    expect(sanitize("\x1b[31mred\x1b[0m and \x1b]0;title\x07plain")).toBe("red and plain");
  });
  test("keeps the last overwrite of a carriage-return progress line", () => {
    expect(sanitize("10%\r50%\r100%")).toBe("100%");
  });
  test("expands tabs and drops other control characters", () => {
    expect(sanitize("a\tb")).toBe("a       b");
    expect(sanitize("x\x07y\x00z")).toBe("xyz");
  });
  // issue 32: a terminal that takes C1 controls reads U+009B as CSI and U+009D as OSC
  test("strips the C1 forms of CSI and OSC whole, and any other C1 control", () => {
    expect(sanitize("a\x9b2Jb\x9d0;PWNED\x07c\x9d2;t\x9cd\x85e")).toBe("abcde");
  });
  test("strips bidi overrides and isolates, keeps the text they would reorder", () => {
    expect(sanitize("file\u202eexe.txt \u2066x\u2069")).toBe("fileexe.txt x");
  });
  test("an escape left unterminated or alone shows none of its control bytes", () => {
    for (const s of ["a\x1b]0;PWNED", "a\x1b", "a\x1b\x1b[2J", "a\x9b", "a\x1b[", "a\x9d0;t"]) expect(sanitize(s)).not.toMatch(/[\x1b\x07\x80-\x9f]/);
  });
  test("is idempotent", () => {
    const s = "x\x1b]0;t\x07\x9b1m\ty\r z\u202e";
    expect(sanitize(sanitize(s))).toBe(sanitize(s));
  });
});

describe("sanitizeBlock: what the CLI writes", () => {
  test("keeps newlines and tabs (a diff, a prompt) and sanitises each line", () => {
    expect(sanitizeBlock("a\tb\n\x1b[31mred\x1b[0m\r\n10%\r100%\n\x9b2Jend\u202e\n")).toBe("a\tb\nred\n100%\nend\n");
  });
  test("leaves plain text as it is, the same string", () => {
    const plain = "ID  NAME\nag_1  brave-otter\t$0.05\n";
    expect(sanitizeBlock(plain)).toBe(plain);
    expect(sanitizeBlock("ünïcode ├─ …")).toBe("ünïcode ├─ …");
  });
});

describe("wrapText", () => {
  test("breaks at spaces within the width", () => {
    expect(wrapText("the quick brown fox jumps", 10)).toEqual(["the quick", "brown fox", "jumps"]);
  });
  test("hard-breaks a word longer than a row", () => {
    expect(wrapText("abcdefghijkl", 5)).toEqual(["abcde", "fghij", "kl"]);
  });
  test("keeps an empty line as one row", () => {
    expect(wrapText("", 10)).toEqual([""]);
  });
  test("counts wide characters as two columns", () => {
    const rows = wrapText("日本語のテキスト", 6);
    for (const r of rows) expect(displayWidth(r)).toBeLessThanOrEqual(6);
    expect(rows.join("")).toBe("日本語のテキスト");
  });
});

describe("truncate and fit", () => {
  test("cut with an ellipsis only when needed", () => {
    expect(truncate("hello", 10)).toBe("hello");
    expect(truncate("hello world", 6)).toBe("hello…");
    expect(displayWidth(truncate("日本語のテキスト", 7))).toBeLessThanOrEqual(7);
  });
  test("fit pads to the exact width", () => {
    expect(fit("ab", 4)).toBe("ab  ");
    expect(fit("abcdef", 4)).toBe("abc…");
  });
});
