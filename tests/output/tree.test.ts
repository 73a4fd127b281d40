import { describe, expect, test } from "bun:test";
import { LIST_GLYPHS, LS_GLYPHS, asciiFromEnv, treePrefix, treeRows, type TreeItem } from "../../src/output/tree.ts";

const item = (id: string, parentId: string | null = null): TreeItem => ({ id, parentId });

/** Each row as `<prefix><id>`, drawn as `troupe ls` draws it. */
const drawn = (items: TreeItem[], detach?: (i: TreeItem) => boolean, ascii = false) =>
  treeRows(items, detach).map((r) => treePrefix(r.lasts, LS_GLYPHS[ascii ? "ascii" : "unicode"]) + r.item.id);

describe("treeRows", () => {
  test("each child right under its parent; siblings and the top level keep the order given", () => {
    const items = [item("lead"), item("solo"), item("w1", "lead"), item("w2", "lead"), item("w1a", "w1"), item("w2a", "w2")];
    expect(drawn(items)).toEqual(["lead", "├─ w1", "│  └─ w1a", "└─ w2", "   └─ w2a", "solo"]);
    expect(treeRows(items).map((r) => r.depth)).toEqual([0, 1, 2, 1, 2, 0]);
  });

  test("ASCII glyphs draw the same shape", () => {
    const items = [item("lead"), item("w1", "lead"), item("w1a", "w1"), item("w2", "lead")];
    expect(drawn(items, undefined, true)).toEqual(["lead", "|- w1", "|  `- w1a", "`- w2"]);
    expect(treePrefix([false, true], LIST_GLYPHS.unicode)).toBe("│ └ ");
    expect(treePrefix([true, false], LIST_GLYPHS.ascii)).toBe("  |-");
  });

  test("a child given before its parent still shows under it", () => {
    expect(drawn([item("w", "lead"), item("lead")])).toEqual(["lead", "└─ w"]);
  });

  test("a child whose parent is not among the items (removed, filtered out) is at the top level, in its place", () => {
    expect(drawn([item("a"), item("orphan", "gone"), item("b")])).toEqual(["a", "orphan", "b"]);
  });

  test("a detached item goes to the top level in its place, its own children still under it", () => {
    const items = [item("asks", "lead"), item("lead"), item("w", "lead"), item("asks-child", "asks")];
    expect(drawn(items, (i) => i.id === "asks")).toEqual(["asks", "└─ asks-child", "lead", "└─ w"]);
  });

  test("a parent loop shows every item once, after the rest; an item its own parent is top level", () => {
    expect(drawn([item("x", "y"), item("y", "x"), item("self", "self"), item("a")])).toEqual(["self", "a", "x", "└─ y"]);
  });
});

test("ASCII on TERM=dumb or TROUPE_ASCII=1, box drawing otherwise", () => {
  expect(asciiFromEnv({ TERM: "dumb" })).toBe(true);
  expect(asciiFromEnv({ TERM: "xterm-256color", TROUPE_ASCII: "1" })).toBe(true);
  expect(asciiFromEnv({ TERM: "xterm-256color" })).toBe(false);
});
