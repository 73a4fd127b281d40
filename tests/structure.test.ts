import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { probeTrees } from "./support/probe-tree.ts";

/**
 * The repository's layout, as a newcomer relies on it: a unit test sits where its code sits
 * (the test of src/x/y.ts at tests/x/y.test.ts, of providers/z.ts at tests/providers/z.test.ts),
 * a test's name says which code it tests, and no source file is over 400 lines. The suites that drive the whole program stay suites.
 */

const root = join(import.meta.dir, "..");
const probeTree = probeTrees("troupe-structure-");

/** Folders of tests/ that hold suites (the whole program, the binary, the package) or helpers, not unit tests. */
const SUITES = ["integration", "e2e", "stress", "dist", "npm", "support", "fixtures"];

/** The code folder a unit test's folder mirrors: tests/providers/… → providers/…, tests/x/… → src/x/…. */
function mirrored(testDir: string): string {
  return testDir === "providers" || testDir.startsWith("providers/") ? testDir : join("src", testDir);
}

/** The unit tests, relative to tests/: every test file outside the suites. */
function unitTests(at: string): string[] {
  return [...new Glob("tests/**/*.test.{ts,tsx}").scanSync({ cwd: at })]
    .map((f) => f.slice("tests/".length))
    .filter((f) => !SUITES.includes(f.split("/")[0]!));
}

/** Each unit test (root-relative) whose folder has no counterpart in src/ (or providers/). */
function unmirroredTests(at: string): string[] {
  return unitTests(at)
    .filter((f) => {
      const code = join(at, mirrored(dirname(f)));
      return !(existsSync(code) && statSync(code).isDirectory());
    })
    .map((f) => `tests/${f}`)
    .sort();
}

/**
 * Each unit test named like a source file it is not the mirror of (`tests/ui/flows/flows.test.tsx`
 * while the code has `src/store/flows.ts`): one looking for that file's tests would find it.
 * A test named for what it holds (a feature, a contract) takes a name no source file has.
 */
function namesakes(at: string): string[] {
  const code = [...new Glob("{src,providers}/**/*.{ts,tsx}").scanSync({ cwd: at })];
  const byName = new Map<string, string[]>();
  for (const f of code) {
    const name = f.slice(f.lastIndexOf("/") + 1).replace(/\.tsx?$/, "");
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  return unitTests(at)
    .flatMap((f) => {
      const name = f.slice(f.lastIndexOf("/") + 1).replace(/\.test\.tsx?$/, "");
      const base = join(mirrored(dirname(f)), name);
      if (existsSync(join(at, `${base}.ts`)) || existsSync(join(at, `${base}.tsx`))) return [];
      const others = byName.get(name) ?? [];
      return others.length ? [`tests/${f}: named like ${others.sort().join(", ")}`] : [];
    })
    .sort();
}

/** Each source file of src/ and providers/ over `max` lines, with its count. */
function longFiles(at: string, max: number): string[] {
  return [...new Glob("{src,providers}/**/*.{ts,tsx}").scanSync({ cwd: at })]
    .map((f) => [f, readFileSync(join(at, f), "utf8").split("\n").length - 1] as const)
    .filter(([, n]) => n > max)
    .map(([f, n]) => `${f}: ${n} lines`)
    .sort();
}


describe("tests mirror src/", () => {
  test("every unit test's folder is a folder of src/ (or providers/)", () => {
    expect(unmirroredTests(root)).toEqual([]);
  });

  test("the check finds a unit test in a folder the code does not have, and leaves the suites alone", () => {
    const at = probeTree("mirror", {
      "src/agents/output/tailer.ts": "",
      "src/store/db.ts": "",
      "providers/claude.ts": "",
      "tests/agents/output/tailer.test.ts": "",
      "tests/store/damaged-rows.test.ts": "",
      "tests/providers/conformance.test.ts": "",
      "tests/top.test.ts": "",
      "tests/integration/anything.test.ts": "",
      "tests/support/helper.test.ts": "",
      "tests/agents/tailer.test.ts": "",
      "tests/output/tailer.test.ts": "",
      "tests/providers/claude/parser.test.ts": "",
      "tests/ui/view.test.tsx": "",
    });
    expect(unmirroredTests(at)).toEqual([
      "tests/output/tailer.test.ts",
      "tests/providers/claude/parser.test.ts",
      "tests/ui/view.test.tsx",
    ]);
  });
});

describe("a test's name says which code it tests", () => {
  test("no unit test is named like a source file it does not mirror", () => {
    expect(namesakes(root)).toEqual([]);
  });

  test("the check finds a namesake elsewhere, and leaves mirrors and names of their own alone", () => {
    const at = probeTree("names", {
      "src/store/flows.ts": "",
      "src/ui/flows/FlowsView.tsx": "",
      "src/ui/shared/layout.ts": "",
      "providers/claude.ts": "",
      "tests/store/flows.test.ts": "",
      "tests/ui/flows/FlowsView.test.tsx": "",
      "tests/ui/flows/flows.test.tsx": "",
      "tests/layout.test.ts": "",
      "tests/providers/claude.test.ts": "",
      "tests/providers/conformance.test.ts": "",
      "tests/integration/flows.test.ts": "",
    });
    expect(namesakes(at)).toEqual([
      "tests/layout.test.ts: named like src/ui/shared/layout.ts",
      "tests/ui/flows/flows.test.tsx: named like src/store/flows.ts",
    ]);
  });
});

describe("sizes a newcomer can hold", () => {
  test("no source file in src/ or providers/ over 400 lines", () => {
    expect(longFiles(root, 400)).toEqual([]);
  });

  test("the check counts lines, in src/ and providers/ both", () => {
    const at = probeTree("sizes", {
      "src/a/long.ts": "x\n".repeat(401),
      "src/a/fits.tsx": "x\n".repeat(400),
      "providers/long.ts": "x\n".repeat(450),
      "scripts/long.ts": "x\n".repeat(900),
    });
    expect(longFiles(at, 400)).toEqual(["providers/long.ts: 450 lines", "src/a/long.ts: 401 lines"]);
  });
});
