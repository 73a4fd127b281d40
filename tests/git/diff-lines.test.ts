import { describe, expect, test } from "bun:test";
import { parseDiff } from "../../src/git/diff-lines.ts";

const lines = (...ls: string[]) => `${ls.join("\n")}\n`;

describe("parseDiff", () => {
  test("each line of code carries its file and its number on each side it is on", () => {
    const diff = lines(
      "diff --git a/src/app.ts b/src/app.ts",
      "index 1111111..2222222 100644",
      "--- a/src/app.ts",
      "+++ b/src/app.ts",
      "@@ -3,3 +3,4 @@ function main() {",
      " const a = 1;",
      "-const b = 2;",
      "+const b = 3;",
      "+const c = 4;",
      " return a;",
      "@@ -20 +21 @@",
      "-old",
      "+new",
    );
    const out = parseDiff(diff, "committed");
    expect(out.map((l) => l.kind)).toEqual(["file", "meta", "meta", "meta", "hunk", "context", "del", "add", "add", "context", "hunk", "del", "add"]);
    expect(out.every((l) => l.file === "src/app.ts" && l.section === "committed")).toBe(true);
    expect(out.slice(5, 10).map((l) => [l.old, l.new])).toEqual([[3, 3], [4, undefined], [undefined, 4], [undefined, 5], [5, 6]]);
    expect(out.slice(11).map((l) => [l.old, l.new])).toEqual([[20, undefined], [undefined, 21]]);
  });

  test("a removed line that reads like a header (`--- x`) is a removed line: the hunk's counts say so", () => {
    const diff = lines("diff --git a/n.md b/n.md", "--- a/n.md", "+++ b/n.md", "@@ -1,2 +1,2 @@", "--- x", "+++ y", " keep", "diff --git a/o.md b/o.md");
    const out = parseDiff(diff);
    expect(out.slice(4, 7).map((l) => [l.kind, l.old, l.new])).toEqual([["del", 1, undefined], ["add", undefined, 1], ["context", 2, 2]]);
    expect(out[7]).toMatchObject({ kind: "file", file: "o.md" });
  });

  test("a new file, a deleted one (named by its old path), a binary one, and the no-newline note", () => {
    const diff = lines(
      "diff --git a/new.txt b/new.txt",
      "new file mode 100644",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1 @@",
      "+hello",
      "\\ No newline at end of file",
      "diff --git a/gone.txt b/gone.txt",
      "deleted file mode 100644",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "diff --git a/img.png b/img.png",
      "Binary files a/img.png and b/img.png differ",
    );
    const out = parseDiff(diff);
    expect(out[5]).toEqual({ text: "+hello", kind: "add", file: "new.txt", new: 1 });
    expect(out[6]).toMatchObject({ kind: "note", file: "new.txt" });
    expect(out[12]).toEqual({ text: "-bye", kind: "del", file: "gone.txt", old: 1 });
    expect(out[14]).toMatchObject({ kind: "meta", file: "img.png" });
  });

  test("paths with spaces, renames and git's quoting of unusual characters", () => {
    const diff = lines(
      "diff --git a/my file.txt b/my file.txt",
      "--- a/my file.txt",
      "+++ b/my file.txt",
      "@@ -1 +1 @@",
      "-a",
      "+b",
      "diff --git a/old name.txt b/new name.txt",
      "similarity index 90%",
      "rename from old name.txt",
      "rename to new name.txt",
      "--- a/old name.txt",
      "+++ b/new name.txt",
      "@@ -1 +1 @@",
      "-x",
      "+y",
      'diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"',
      '--- "a/caf\\303\\251.txt"',
      '+++ "b/caf\\303\\251.txt"',
      "@@ -1 +1 @@",
      "-c",
      "+d",
    );
    const out = parseDiff(diff);
    expect(out[5]).toMatchObject({ kind: "add", file: "my file.txt" });
    // the header lines of the renamed file learn its name from `+++`
    expect(out.slice(6, 15).every((l) => l.file === "new name.txt")).toBe(true);
    expect(out[15]).toMatchObject({ kind: "file", file: "café.txt" });
    expect(out[20]).toMatchObject({ kind: "add", file: "café.txt", new: 1 });
  });

  test("a blank unchanged line printed as nothing (diff.suppressBlankEmpty) is context; an empty diff is no lines", () => {
    const out = parseDiff(lines("diff --git a/f b/f", "--- a/f", "+++ b/f", "@@ -1,3 +1,3 @@", " a", "", "-b", "+c"));
    expect(out[5]).toEqual({ text: "", kind: "context", file: "f", old: 2, new: 2 });
    expect(out[7]).toMatchObject({ kind: "add", new: 3 });
    expect(parseDiff("")).toEqual([]);
  });
});
