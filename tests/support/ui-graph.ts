import { Glob } from "bun";
import { importsOf, stronglyConnected } from "./imports.ts";

/**
 * src/ui as a graph of folders, from every import (static, type-only, re-export, dynamic) of its
 * files. A folder is a folder right under src/ui (its subfolders are part of it), a folder of
 * src/ui/kit (the kit's parts must not go round among themselves either), or `.` for the files at
 * the top. scripts/ui-graph.ts prints it; tests/ui/structure.test.ts holds it.
 */

export interface UiImport {
  from: string;
  to: string;
  fromFolder: string;
  toFolder: string;
}

/** The folder of a file under src/ui (root-relative path), as the graph counts it. */
function uiFolderOf(file: string): string {
  const parts = file.split("/").slice(2);
  if (parts.length === 1) return ".";
  if (parts[0] === "kit" && parts.length > 2) return `kit/${parts[1]}`;
  return parts[0]!;
}

/**
 * The layers, bottom first: the kit, the mirror (the daemon's state in the dashboard, which every
 * feature may read), several sources over it, the features, the shell that composes them, the
 * entry at the top. An import from a folder to one of a higher layer runs "up". Folders named
 * here that no longer exist are those the tree had before the kit (counted with the layer they went to).
 */
const LAYER_OF: Record<string, number> = {
  kit: 0, keys: 0, shared: 0, terminal: 0, dialogs: 0,
  mirror: 1,
  sources: 2,
  shell: 4,
  ".": 5,
};

/** A folder's layer: kit parts 0, unlisted folders are features (3). */
export function uiLayerOf(folder: string): number {
  if (folder.startsWith("kit/")) return 0;
  return LAYER_OF[folder] ?? 3;
}

/** Every import from one src/ui folder to another, one per import written. */
export function uiImports(root: string): UiImport[] {
  const out: UiImport[] = [];
  for (const from of [...new Glob("src/ui/**/*.{ts,tsx}").scanSync({ cwd: root })].sort()) {
    for (const to of importsOf(root, from)) {
      if (!to.startsWith("src/ui/")) continue;
      const fromFolder = uiFolderOf(from);
      const toFolder = uiFolderOf(to);
      if (fromFolder !== toFolder) out.push({ from, to, fromFolder, toFolder });
    }
  }
  return out;
}

export interface UiGraph {
  imports: UiImport[];
  /** Sets of folders that all reach one another: each is a cycle (or several). */
  cycles: string[][];
  /** The imports whose two folders lie on one cycle. */
  onCycle: UiImport[];
  /** Of those, the ones that run up the layers. */
  up: UiImport[];
}

/** `without`: folders left out of the graph (`.`: the graph of the folders alone). */
export function uiGraph(root: string, without: readonly string[] = []): UiGraph {
  const imports = uiImports(root).filter((i) => !without.includes(i.fromFolder) && !without.includes(i.toFolder));
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    edges.set(i.fromFolder, [...(edges.get(i.fromFolder) ?? []), i.toFolder]);
    if (!edges.has(i.toFolder)) edges.set(i.toFolder, []);
  }
  const cycles = stronglyConnected(edges);
  const cycleOf = new Map(cycles.flatMap((c, n) => c.map((f) => [f, n] as const)));
  const onCycle = imports.filter((i) => cycleOf.has(i.fromFolder) && cycleOf.get(i.fromFolder) === cycleOf.get(i.toFolder));
  const up = onCycle.filter((i) => uiLayerOf(i.toFolder) > uiLayerOf(i.fromFolder));
  return { imports, cycles, onCycle, up };
}
