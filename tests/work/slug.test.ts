import { describe, expect, test } from "bun:test";
import { SlugSchema } from "../../src/protocol/work.ts";
import { slugify, uniqueSlug } from "../../src/work/slug.ts";

describe("slugs", () => {
  const cases: [string, string][] = [
    ["Checkout v2", "checkout-v2"],
    ["  Ünïcode — names!  ", "unicode-names"],
    ["---", "initiative"],
    ["日本語", "initiative"],
    ["a".repeat(80), "a".repeat(55)],
    [`${"word ".repeat(20)}`, "word-word-word-word-word-word-word-word-word-word-word"],
  ];
  for (const [name, want] of cases) {
    test(`${JSON.stringify(name)} → ${want}`, () => {
      expect(slugify(name)).toBe(want);
      expect(SlugSchema.safeParse(slugify(name)).success).toBe(true);
    });
  }

  test("a taken slug gets the first free number", async () => {
    const taken = new Set(["shop", "shop-2"]);
    expect(await uniqueSlug("shop", (s) => taken.has(s))).toBe("shop-3");
    expect(await uniqueSlug("cart", (s) => taken.has(s))).toBe("cart");
  });
});
