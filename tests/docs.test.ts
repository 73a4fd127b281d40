import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { probeTrees } from "./support/probe-tree.ts";

/**
 * The docs stay a map of the code: every file they name exists, every link between them lands on
 * a file and a heading, the map links every topic file, and it stays a map (not a notebook).
 */

const root = join(import.meta.dir, "..");
const probeTree = probeTrees("troupe-docs-");

/** Paths the docs name before they exist, each with its reason. */
const TO_COME: Record<string, string> = {
  "src/runtime/deno/": "the Deno adapter (issue 20), described as the contract's second adapter",
};

/** The markdown files checked: the README and docs/. */
const docFiles = (at: string) => ["README.md", ...[...new Glob("docs/*.md").scanSync({ cwd: at })].sort()];

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Each repository path in backquotes (`src/…`, `tests/…`, `scripts/…`, `providers/…`, `npm/…`) that does not exist. */
function missingPaths(at: string): string[] {
  return docFiles(at).flatMap((doc) =>
    [...readFileSync(join(at, doc), "utf8").matchAll(/`((?:src|tests|scripts|providers|npm)\/[^`\s]*)`/g)]
      .map((m) => m[1]!.replace(/[.,:;)]+$/, ""))
      .filter((p) => !/[*<>{]/.test(p) && !(p in TO_COME) && !existsSync(join(at, p)))
      .map((p) => `${doc}: ${p}`),
  );
}

/** Each link to a markdown file of the repository whose file or heading is not there. */
function brokenLinks(at: string): string[] {
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string) => {
    if (!anchors.has(file)) {
      const text = readFileSync(join(at, file), "utf8").replace(/```[\s\S]*?```/g, "");
      anchors.set(file, new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchorOf(m[1]!))));
    }
    return anchors.get(file)!;
  };
  return docFiles(at).flatMap((doc) =>
    [...readFileSync(join(at, doc), "utf8").matchAll(/\]\(([^)\s]*?\.md)(#[^)\s]*)?\)/g)].flatMap((m) => {
      if (/^[a-z]+:/.test(m[1]!)) return [];
      const target = join(dirname(doc), m[1]!);
      if (!existsSync(join(at, target))) return [`${doc}: ${m[1]} (no such file)`];
      const anchor = m[2]?.slice(1);
      return anchor && !anchorsOf(target).has(anchor) ? [`${doc}: ${m[1]}#${anchor} (no such heading)`] : [];
    }),
  );
}

/** The topic files of docs/ that the map does not link. */
function unlinkedTopics(at: string): string[] {
  const map = readFileSync(join(at, "docs/architecture.md"), "utf8");
  return [...new Glob("docs/*.md").scanSync({ cwd: at })]
    .map((f) => f.slice("docs/".length))
    .filter((f) => f !== "architecture.md" && !map.includes(`](${f})`) && !map.includes(`](${f}#`))
    .sort();
}


describe("the docs name what exists", () => {
  test("every repository path they name in backquotes exists", () => {
    expect(missingPaths(root)).toEqual([]);
  });

  test("every link between them lands on a file and, when it names one, a heading", () => {
    expect(brokenLinks(root)).toEqual([]);
  });

  test("the map links every topic file of docs/", () => {
    expect(unlinkedTopics(root)).toEqual([]);
  });

  test("the map stays a map: at most ~300 lines", () => {
    expect(readFileSync(join(root, "docs/architecture.md"), "utf8").split("\n").length).toBeLessThanOrEqual(320);
  });

  test("the checks find a missing path, a broken link or heading, and an unlinked topic", () => {
    const at = probeTree("docs", {
      "src/agents/service.ts": "",
      "src/services/end-of-run.ts": "",
      "README.md": "See `src/agents/service.ts`, `src/agents/gone.ts`, `src/<folder>/<name>.ts` and [the map](docs/architecture.md).\n",
      "docs/architecture.md": "# Map\n\n## What follows an agent's end (`src/services/end-of-run.ts`)\n\n[a](agents.md) [b](agents.md#spawn) [c](nowhere.md) [d](architecture.md#what-follows-an-agents-end-srcservicesend-of-runts)\n",
      "docs/agents.md": "# Agents\n\n```\n# not a heading\n```\n[back](architecture.md#map) [bad](architecture.md#not-a-heading)\n",
      "docs/lonely.md": "# Lonely\n",
    });
    expect(missingPaths(at)).toEqual(["README.md: src/agents/gone.ts"]);
    expect(brokenLinks(at)).toEqual([
      "docs/agents.md: architecture.md#not-a-heading (no such heading)",
      "docs/architecture.md: agents.md#spawn (no such heading)",
      "docs/architecture.md: nowhere.md (no such file)",
    ]);
    expect(unlinkedTopics(at)).toEqual(["lonely.md"]);
  });
});
