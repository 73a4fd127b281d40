import { describe, expect, test } from "bun:test";
import type { RenderedLine } from "../../../src/output/lines.ts";
import { FOLLOW, arraySource, bottomAnchor, scrollBy, scrollHome, visibleWindow, type LineSource } from "../../../src/ui/output/scroll.ts";

const lines = (n: number): RenderedLine[] => Array.from({ length: n }, (_, i) => ({ text: `line ${i}`, kind: "text" as const }));
const vp = { width: 20, height: 5 };
const texts = (src: LineSource, s: Parameters<typeof visibleWindow>[2]) => visibleWindow(src, vp, s).rows.map((r) => r.text);

describe("output scrolling", () => {
  const src = arraySource(lines(100));

  test("following shows the last rows", () => {
    expect(texts(src, FOLLOW)).toEqual(["line 95", "line 96", "line 97", "line 98", "line 99"]);
  });

  test("scrolling up pins the view; scrolling back to the end follows again", () => {
    const up = scrollBy(src, vp, FOLLOW, -3);
    expect(up.follow).toBe(false);
    expect(texts(src, up)).toEqual(["line 92", "line 93", "line 94", "line 95", "line 96"]);
    expect(visibleWindow(src, vp, up).below).toBe(3);
    expect(scrollBy(src, vp, up, 3)).toEqual(FOLLOW);
  });

  test("a pinned view stays put while output grows", () => {
    const all = lines(100);
    const growing: LineSource = { base: 0, get end() { return all.length; }, at: (i) => all[i]! };
    const pinned = scrollBy(growing, vp, FOLLOW, -10);
    const before = texts(growing, pinned);
    all.push(...lines(50));
    expect(texts(growing, pinned)).toEqual(before);
  });

  test("home goes to the first line, and pages stop there", () => {
    const home = scrollHome(src, vp);
    expect(texts(src, home)[0]).toBe("line 0");
    expect(texts(src, scrollBy(src, vp, home, -50))[0]).toBe("line 0");
  });

  test("wrapped lines count by rows, and a window can start inside a line", () => {
    const wide = arraySource([{ text: "a ".repeat(30).trim(), kind: "text" }, ...lines(2)]);
    const w = visibleWindow(wide, { width: 10, height: 4 }, FOLLOW);
    expect(w.rows).toHaveLength(4);
    expect(w.rows.at(-1)!.text).toBe("line 1");
    expect(bottomAnchor(wide, { width: 10, height: 4 })).toEqual({ line: 0, row: 4 });
  });

  test("lines dropped from the front clamp a pinned view to the first kept line", () => {
    const all = lines(10);
    const src2: LineSource = { base: 50, end: 60, at: (i) => all[i - 50]! };
    expect(texts(src2, { follow: false, line: 3, row: 0 })[0]).toBe("line 0");
  });

  test("an empty source shows nothing and always follows", () => {
    const empty = arraySource([]);
    expect(visibleWindow(empty, vp, FOLLOW).rows).toEqual([]);
    expect(scrollBy(empty, vp, FOLLOW, -5)).toEqual(FOLLOW);
  });
});
