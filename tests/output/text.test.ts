import { describe, expect, test } from "bun:test";
import { displayWidth, fit, sanitize, truncate, wrapText } from "../../src/output/text.ts";

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
