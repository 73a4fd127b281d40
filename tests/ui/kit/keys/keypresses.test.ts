import { describe, expect, test } from "bun:test";
import { keypresses } from "../../../../src/ui/kit/keys/keypresses.ts";

const plain = { ctrl: false, shift: false, meta: false };

describe("keypresses: the keys in one input event", () => {
  test("text and enter in one read are the text, then enter", () => {
    expect(keypresses("yes, ship it\r", plain)).toEqual([
      { input: "yes, ship it", key: plain },
      { input: "", key: { ...plain, return: true } },
    ]);
  });

  test("control bytes inside text are the keys they are; text between stays one piece", () => {
    const keys = keypresses("a\tb\nc\x13", plain);
    expect(keys.map((k) => k.input)).toEqual(["a", "", "b", "\n", "c", "s"]);
    expect(keys[1]!.key.tab).toBe(true);
    expect(keys[5]!.key.ctrl).toBe(true);
  });

  test("one key, or text without control bytes, is passed through whole", () => {
    const enter = { ...plain, return: true };
    expect(keypresses("", enter)).toEqual([{ input: "", key: enter }]);
    expect(keypresses("jjkka", plain)).toEqual([{ input: "jjkka", key: plain }]);
    expect(keypresses("\n", plain)).toEqual([{ input: "\n", key: plain }]);
  });
});
