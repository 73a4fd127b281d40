import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { probeTrees } from "./support/probe-tree.ts";

/**
 * Code comments name what exists, as the docs do (tests/docs.test.ts): a comment in src/,
 * providers/, scripts/ or tests/ that names a file of the repository names one that is there, so
 * a rename or a removal that leaves a comment behind fails here.
 *
 * Comments are found by TypeScript's parser (a string or a regular expression holding `//` is no
 * comment). A name in one is a run of path characters, checked by its kind:
 *  - rooted, `src/…`, `tests/…`, `scripts/…`, `providers/…`, `docs/…`, `npm/…`, `patches/…` (a
 *    file or a folder): from the repository's root;
 *  - partial, a .ts or .tsx path with a folder (`services/api.ts`, `ui/kit/keys/helpers.ts`,
 *    `../<name>.ts`): from the comment's folder or one above it, from src/, and for a test from
 *    the src/ folders it mirrors (a comment in `tests/ui/<name>.test.ts`: src/ui/, src/);
 *  - bare, a .ts or .tsx file name (`list-index.ts`): a file of that name in those four folders.
 * Left out: a name with a wildcard or a placeholder in it (`*`, `<…>`, `{…}`); a run after `/`,
 * `~`, `.`, `$`, `@` or `:` (a URL, a home or absolute path), or one starting with a dot but for
 * `./` and `../` (a suffix such as `.test.ts`, a dot folder); and other names that are not the
 * repository's own (`.troupe/config.json`, `auth.json`, `main.js`).
 */

const root = join(import.meta.dir, "..");
const probeTree = probeTrees("troupe-comments-");
const FOLDERS = ["src", "providers", "scripts", "tests"];

/** Names in comments that are examples, not references (`file: name`), each with its reason. */
const EXAMPLES: Record<string, string> = {
  "src/permissions/rules.ts: src/a.ts": "a path as a rule sees it",
  "src/permissions/rules.ts: a.test.ts": "an argument a command rule matches",
  "src/ui/diff/DiffView.tsx: app.ts": "the place the diff view shows, `file:line`",
  "tests/structure.test.ts: src/x/y.ts": "the mirror rule, by example",
  "tests/structure.test.ts: tests/x/y.test.ts": "the mirror rule, by example",
  "tests/structure.test.ts: providers/z.ts": "the mirror rule, by example",
  "tests/structure.test.ts: tests/providers/z.test.ts": "the mirror rule, by example",
  "tests/structure.test.ts: tests/ui/flows/flows.test.tsx": "the probe tree's misnamed test",
  "tests/structure.test.ts: src/x/": "the mirror rule, by example",
  "src/ui/phases/phase-rows.ts: src/api.ts": "a glob a task owns, in a waiting reason",
  "src/work/file-ownership.ts: src/api.ts": "globs that meet, by example",
  "tests/work/dispatch-plan.test.ts: src/api.ts": "a glob the test's tasks own",
  "tests/work/file-ownership.test.ts: src/api.ts": "a glob the test's tasks own",
  "tests/work/file-ownership.test.ts: src/ab.ts": "a glob the test's tasks own",
  "tests/structure.test.ts: tests/x/": "the mirror rule, by example",
};

/** Every comment of a source file, in order. */
function commentsOf(file: string, text: string): string[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const take = (ranges: ts.CommentRange[] | undefined) => ranges?.forEach((r) => found.set(r.pos, text.slice(r.pos, r.end)));
  // down to the tokens (getChildren, not forEachChild): a comment alone in `{ }` or in JSX's
  // `{/* */}` is trivia before a `}`, which no node starts at
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    node.getChildren(sf).forEach(visit);
  };
  visit(sf);
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, c]) => c);
}

const NAME = /(?<![\w.\/~$@:*<>{}+-])(?:\.{1,2}\/)*[\w@][\w.@+-]*(?:\/[\w.@+-]*)*(?![\w.\/~$@*<>{}+-])/g;
const ROOTED = /^(?:src|tests|scripts|providers|docs|npm|patches)\//;
const SOURCE = /\.tsx?$/;

/** The folders a partial path may be from, for a comment in `file`. */
function basesOf(file: string): string[] {
  const up = (dir: string): string[] => (dir === "." ? ["."] : [dir, ...up(dirname(dir))]);
  const own = up(dirname(file));
  const mirrored = file.startsWith("tests/") ? up(dirname(file).replace(/^tests/, "src")) : [];
  return [...new Set([...own, ...mirrored, "src"])];
}

/** Each name in a comment of the four folders that names nothing there (`file: name`), and each example no comment holds. */
function staleNames(at: string, examples: Record<string, string> = EXAMPLES): string[] {
  const files = FOLDERS.flatMap((d) => (existsSync(join(at, d)) ? [...new Glob(`${d}/**/*.{ts,tsx}`).scanSync({ cwd: at })] : [])).sort();
  const basenames = new Set(files.map((f) => f.slice(f.lastIndexOf("/") + 1)));
  const exists = (file: string, name: string): boolean => {
    if (ROOTED.test(name)) return existsSync(join(at, name));
    if (!name.includes("/")) return basenames.has(name);
    return basesOf(file).some((base) => existsSync(join(at, base, name)));
  };
  const seen = new Set<string>();
  const stale = files.flatMap((file) =>
    commentsOf(file, readFileSync(join(at, file), "utf8")).flatMap((comment) =>
      [...comment.matchAll(NAME)]
        .map((m) => m[0].replace(/\.+$/, ""))
        .filter((name) => ROOTED.test(name) || SOURCE.test(name))
        .map((name) => `${file}: ${name}`)
        .filter((ref) => {
          seen.add(ref);
          return !(ref in examples) && !exists(ref.slice(0, ref.indexOf(": ")), ref.slice(ref.indexOf(": ") + 2));
        }),
    ),
  );
  const unused = Object.keys(examples).filter((ref) => !seen.has(ref)).map((ref) => `${ref} (an example no comment holds)`);
  return [...new Set(stale), ...unused];
}

describe("code comments name what exists", () => {
  // parsing every source file takes a second or two
  test("every repository file or folder a comment names is there", () => {
    expect(staleNames(root)).toEqual([]);
  }, 30_000);

  test("the check finds a stale name of each kind, and leaves strings, URLs, placeholders and examples alone", () => {
    const at = probeTree("comments", {
      "src/agents/service.ts": "",
      "src/services/api.ts": "",
      "src/ui/kit/keys/helpers.ts": "",
      "src/ui/shell/app.tsx": [
        "// `src/agents/service.ts`, services/api.ts, ../kit/keys/helpers.ts and helpers.ts are there;",
        "// src/services/handlers.ts, services/handlers.ts, handlers.ts and src/gone/ are not.",
        "/** Not names: https://example.com/src/x.ts, ~/src/y.ts, /tmp/src/z.ts, `*.test.ts`, src/<name>.ts, `.troupe/config.json`, auth.json. */",
        'const s = "// src/in-a-string.ts";',
        "const r = /\\/\\/ src\\/in-a-regex.ts/;",
        "export function f() {",
        "  return s + r; // src/trailing.ts",
        "  // src/before-the-brace.ts",
        "}",
        "try { f(); } catch { /* src/in-an-empty-block.ts */ }",
        "// src/example.ts",
      ].join("\n"),
      "tests/ui/shell/app.test.tsx": "// kit/keys/helpers.ts (from src/ui/), shell/app.tsx (from src/ui/); kit/keys/gone.ts\n",
    });
    expect(staleNames(at, { "src/ui/shell/app.tsx: src/example.ts": "an example", "src/x.ts: src/y.ts": "no longer held" })).toEqual([
      "src/ui/shell/app.tsx: src/services/handlers.ts",
      "src/ui/shell/app.tsx: services/handlers.ts",
      "src/ui/shell/app.tsx: handlers.ts",
      "src/ui/shell/app.tsx: src/gone/",
      "src/ui/shell/app.tsx: src/trailing.ts",
      "src/ui/shell/app.tsx: src/before-the-brace.ts",
      "src/ui/shell/app.tsx: src/in-an-empty-block.ts",
      "tests/ui/shell/app.test.tsx: kit/keys/gone.ts",
      "src/x.ts: src/y.ts (an example no comment holds)",
    ]);
  });
});
