import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** Every way a module names another: `from "x"` (imports, type-only, re-exports), `import("x")`, `import "x"`, `require("x")`. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** Every relative import of `file` (static, type-only, re-export, dynamic), resolved to a root-relative path. */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1]!)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => relative(root, resolve(root, dirname(file), spec)));
}

/**
 * The import cycles among `files` (root-relative), type-only imports included: each is a set of
 * files that all reach one another (Tarjan's strongly connected components), sorted, the sets by
 * their first file; a file that imports itself is one too. Imports of files outside `files` are left out.
 */
export function importCycles(root: string, files: readonly string[]): string[][] {
  const inside = new Set(files);
  return stronglyConnected(new Map(files.map((f) => [f, importsOf(root, f).filter((t) => inside.has(t))])));
}

/**
 * The cycles of a directed graph (each node's targets; a target must be a node): its strongly
 * connected components of more than one node, or of one with an edge to itself (Tarjan), each
 * sorted, the sets by their first node.
 */
export function stronglyConnected(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of edges.get(v)!) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || edges.get(v)!.includes(v)) cycles.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
