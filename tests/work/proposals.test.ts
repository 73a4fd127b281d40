import { afterEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseDecision, parseProposal, parseRevisedGoal, parseTaskProposal, readModeOutputs, MAX_PROPOSAL_BYTES } from "../../src/work/proposals.ts";

const F = ".troupe/output/phases/x.md";
const phase = (text: string, name = "storage.md") => parseProposal(F, name, text);

describe("front matter of proposal files", () => {
  test("title, dependsOn and the body", () => {
    expect(phase("---\ntitle: Session storage\ndependsOn: [config, api]\n---\n\nStore sessions.\n\nDone when: ...\n")).toEqual({
      slug: "storage",
      title: "Session storage",
      dependsOn: ["config", "api"],
      body: "Store sessions.\n\nDone when: ...",
    });
  });

  test("a task's files: globs relative to the repository, kept once each; none or null is no list, [] owns none", () => {
    const task = (fm: string) => parseTaskProposal(".troupe/output/tasks/x.md", "write-api.md", `---\ntitle: T\n${fm}---\nbody`);
    expect(task("files: [src/api.ts, './src/api/**', src/api.ts]\n").files).toEqual(["src/api.ts", "src/api/**"]);
    expect(task("").files).toBeNull();
    expect(task("files:\n").files).toBeNull();
    expect(task("files: []\n").files).toEqual([]);
    for (const [fm, says] of [["files: [/etc/passwd]\n", "files.0: must be relative"], ["files: [../x]\n", "without '..'"], ["files: src\n", "files"], ["files: ['']\n", "files.0: must not be empty"]] as const) {
      expect(() => task(fm)).toThrow(says);
    }
    // a phase has no files
    expect(() => phase("---\ntitle: T\nfiles: [a]\n---\nbody")).toThrow("files");
  });

  test("block lists, an empty dependsOn, CRLF and a BOM read the same", () => {
    expect(phase("\uFEFF---\r\ntitle: 'A: quoted'\r\ndependsOn:\r\n  - a\r\n  - b\r\n---\r\nbody\r\n").dependsOn).toEqual(["a", "b"]);
    expect(phase("---\ntitle: T\ndependsOn:\n---\nbody").dependsOn).toEqual([]);
    expect(phase("---\ntitle: T\n---\nbody").dependsOn).toEqual([]);
  });

  test("each malformed file is refused with the file and the problem", () => {
    const bad: [string, string, string?][] = [
      ["no front matter, just prose", "has no front matter"],
      ["---\ntitle: T\nbody without a closing line", "never closed"],
      ["---\ntitle: [unclosed\n---\nbody", "not valid YAML"],
      ["---\ntitle: T\ntitle: U\n---\nbody", "not valid YAML"],
      ["---\ntitle: Store: sessions\n---\nbody", "not valid YAML (line 1)"],
      ["---\n- a\n- b\n---\nbody", "must be a mapping"],
      ["---\nplain words\n---\nbody", "must be a mapping"],
      ["---\ndependsOn: []\n---\nbody", "front matter title"],
      ["---\ntitle: '  '\n---\nbody", "title: must not be empty"],
      ["---\ntitle: T\ndepends_on: [a]\n---\nbody", "depends_on"],
      ["---\ntitle: T\ndependsOn: a\n---\nbody", "dependsOn"],
      ["---\ntitle: T\ndependsOn: [1]\n---\nbody", "dependsOn.0"],
      ["---\ntitle: T\n---\n   \n", "body"],
      ["---\ntitle: T\ndependsOn: [storage]\n---\nbody", "depends on itself"],
      ["---\ntitle: T\n---\nbody", "not a valid slug", "Storage Layer.md"],
    ];
    for (const [text, problem, name] of bad) {
      expect(() => phase(text, name)).toThrow(problem);
      expect(() => phase(text, name)).toThrow(`${F}: `);
    }
  });

  test("an alias bomb is refused, not expanded", () => {
    const bomb = ["---", "a: &a [x, x, x, x, x, x, x, x, x, x]", ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`), "title: T", "---", "body"].join("\n");
    expect(() => phase(bomb)).toThrow(`${F}: front matter cannot be read: Excessive alias count`);
  });

  test("decisions take a title only; a revised goal's front matter is optional", () => {
    expect(parseDecision("d.md", "db.md", "---\ntitle: SQLite\n---\nWe use SQLite.")).toEqual({ slug: "db", title: "SQLite", body: "We use SQLite." });
    expect(() => parseDecision("d.md", "db.md", "---\ntitle: SQLite\ndependsOn: []\n---\nx")).toThrow("dependsOn");
    expect(parseRevisedGoal("g.md", "# Goal\n\nBetter.\n")).toBe("# Goal\n\nBetter.");
    expect(parseRevisedGoal("g.md", "---\nid: in_1\ntitle: X\ndependsOn: []\n---\n# Goal")).toBe("# Goal");
    expect(() => parseRevisedGoal("g.md", "---\ntitle: X\n---\n")).toThrow("the revised goal is empty");
  });
});

describe("reading a worktree's outputs", () => {
  let wt: string;
  afterEach(() => rmSync(wt, { recursive: true, force: true }));
  const make = (files: Record<string, string>) => {
    wt = mkdtempSync(join(tmpdir(), "troupe-out-"));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(wt, path, ".."), { recursive: true });
      writeFileSync(join(wt, path), text);
    }
  };

  test("plan: every phase file in name order; other files ignored; nothing written is an empty plan", () => {
    make({
      ".troupe/output/phases/b-api.md": "---\ntitle: API\ndependsOn: [a-store]\n---\nRoutes.",
      ".troupe/output/phases/a-store.md": "---\ntitle: Store\n---\nTables.",
      ".troupe/output/phases/notes.txt": "scratch",
    });
    const out = readModeOutputs("plan", wt);
    expect(out).toEqual({
      mode: "plan",
      phases: [
        { slug: "a-store", title: "Store", dependsOn: [], body: "Tables." },
        { slug: "b-api", title: "API", dependsOn: ["a-store"], body: "Routes." },
      ],
    });
    expect(readModeOutputs("detail", wt)).toEqual({ mode: "detail", tasks: [] });
    expect(readModeOutputs("refine", wt)).toEqual({ mode: "refine", goal: null });
  });

  test("one bad file refuses the whole output, naming it", () => {
    make({ ".troupe/output/phases/a.md": "---\ntitle: A\n---\nok", ".troupe/output/phases/b.md": "---\ntitle: \n---\nbroken" });
    expect(() => readModeOutputs("plan", wt)).toThrow(".troupe/output/phases/b.md: front matter title");
  });

  test("files the agent points elsewhere, oversized files and a linked folder are refused", () => {
    make({ ".troupe/output/tasks/a.md": "---\ntitle: A\n---\nok", "outside.md": "---\ntitle: O\n---\nsecret" });
    symlinkSync(join(wt, "outside.md"), join(wt, ".troupe/output/tasks/leak.md"));
    expect(() => readModeOutputs("detail", wt)).toThrow("leak.md: ");
    rmSync(join(wt, ".troupe/output/tasks/leak.md"));
    writeFileSync(join(wt, ".troupe/output/tasks/big.md"), `---\ntitle: B\n---\n${"x".repeat(MAX_PROPOSAL_BYTES)}`);
    expect(() => readModeOutputs("detail", wt)).toThrow("big.md");
    rmSync(join(wt, ".troupe/output/tasks/big.md"));
    expect(readModeOutputs("detail", wt)).toMatchObject({ tasks: [{ slug: "a" }] });
    mkdirSync(join(wt, "elsewhere"));
    symlinkSync(join(wt, "elsewhere"), join(wt, ".troupe/output/decisions"));
    expect(() => readModeOutputs("discuss", wt)).toThrow(".troupe/output/decisions: is not a folder");
  });
});
