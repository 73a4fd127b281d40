import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join } from "node:path";
import { importCycles, importsOf } from "../support/imports.ts";
import { probeTrees } from "../support/probe-tree.ts";
import { uiGraph, uiImports, uiLayerOf } from "../support/ui-graph.ts";

/**
 * src/ui is a kit (kit/: keys, the dialog framework, components, terminal, theme, form), the
 * mirror (the daemon's state in the dashboard), sources over it, the features (agents/, output/,
 * diff/, phases/, flows/, permissions/, help/), the shell that composes them, and the entry at the
 * top: these hold what keeps it that way. No import cycle among its files nor its folders (a
 * type-only one neither: a type that goes round is a dependency that goes round); a folder imports
 * only its own layer's or lower ones', and a feature no other feature. Controllers share through
 * kit/keys/helpers.ts, never through one another. The 400-line rule for every source file is in tests/structure.test.ts.
 */

const root = join(import.meta.dir, "../..");
const probeTree = probeTrees("troupe-ui-structure-");

const uiFiles = (at: string) => [...new Glob("src/ui/**/*.{ts,tsx}").scanSync({ cwd: at })].sort();

/** Files directly in each folder of src/ui (the folder itself included), by folder. */
function filesPerFolder(at: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const f of uiFiles(at)) out.set(dirname(f), (out.get(dirname(f)) ?? 0) + 1);
  return out;
}

/**
 * Each import that runs up the layers (`tests/support/ui-graph.ts`: kit, mirror, sources, features,
 * shell, entry) or sideways between features, as `from → to (folder → folder)`.
 */
function layerBreaks(at: string): string[] {
  return uiImports(at)
    .filter((i) => {
      const from = uiLayerOf(i.fromFolder);
      const to = uiLayerOf(i.toFolder);
      return to > from || (from === 3 && to === 3);
    })
    .map((i) => `${i.from} → ${i.to} (${i.fromFolder} → ${i.toFolder})`);
}

/** Each import of one controller (a `*-controller.ts`, one per key context) by another. */
function controllerImports(at: string): string[] {
  const isController = (f: string) => f.endsWith("-controller.ts");
  return uiFiles(at)
    .filter(isController)
    .flatMap((f) => importsOf(at, f).filter(isController).map((t) => `${f} → ${t}`));
}


describe("src/ui by feature", () => {
  test("no import cycle among its files, type-only imports included", () => {
    expect(importCycles(root, uiFiles(root))).toEqual([]);
  });

  test("the check finds a cycle: through a type-only import, a re-export, a longer ring, a file importing itself", () => {
    const at = probeTree("cycles", {
      "src/ui/keys/a-controller.ts": 'import type { B } from "../agents/b-controller.ts";\nexport type A = B;\n',
      "src/ui/agents/b-controller.ts": 'export { a } from "../keys/a-controller.ts";\nexport type B = 1;\n',
      "src/ui/x.ts": 'import "./y.ts";\n',
      "src/ui/y.ts": 'const z = await import("./shared/z.ts");\n',
      "src/ui/shared/z.ts": 'import { x } from "../x.ts";\n',
      "src/ui/self.ts": 'import { s } from "./self.ts";\n',
      "src/ui/fine.ts": 'import { z } from "./shared/z.ts";\nimport { s } from "../output/text.ts";\n',
    });
    expect(importCycles(at, uiFiles(at))).toEqual([
      ["src/ui/agents/b-controller.ts", "src/ui/keys/a-controller.ts"],
      ["src/ui/self.ts"],
      ["src/ui/shared/z.ts", "src/ui/x.ts", "src/ui/y.ts"],
    ]);
  });

  test("no import cycle among its folders (scripts/ui-graph.ts prints the graph)", () => {
    expect(uiGraph(root).cycles).toEqual([]);
  });

  test("the kit imports no feature, features no other feature, nothing runs up the layers", () => {
    expect(layerBreaks(root)).toEqual([]);
  });

  test("the checks find a cycle among folders, an import up, a feature importing another", () => {
    const at = probeTree("folders", {
      "src/ui/kit/keys/binding.ts": 'import type { X } from "../dialogs/spec.ts";\n',
      "src/ui/kit/dialogs/spec.ts": 'import type { B } from "../keys/binding.ts";\nimport { y } from "../../mirror/m.ts";\n',
      "src/ui/mirror/m.ts": 'import { t } from "../kit/theme.ts";\n',
      "src/ui/kit/theme.ts": "export const t = 1;\n",
      "src/ui/agents/a.ts": 'import { m } from "../mirror/m.ts";\nimport type { D } from "../diff/d.ts";\n',
      "src/ui/diff/d.ts": 'import { t } from "../kit/theme.ts";\nimport { s } from "./components/s.tsx";\n',
      "src/ui/diff/components/s.tsx": 'import { d } from "../d.ts";\n',
      "src/ui/shell/app.tsx": 'import { a } from "../agents/a.ts";\nimport { d } from "../diff/d.ts";\n',
      "src/ui/run.tsx": 'const app = await import("./shell/app.tsx");\n',
    });
    expect(uiGraph(at).cycles).toEqual([["kit/dialogs", "kit/keys"]]);
    expect(layerBreaks(at)).toEqual([
      "src/ui/agents/a.ts → src/ui/diff/d.ts (agents → diff)",
      "src/ui/kit/dialogs/spec.ts → src/ui/mirror/m.ts (kit/dialogs → mirror)",
    ]);
  });

  test("controllers share through kit/keys/helpers.ts and their features' bindings: none imports another", () => {
    expect(controllerImports(root)).toEqual([]);
  });

  test("the check finds a controller importing another", () => {
    const at = probeTree("controllers", {
      "src/ui/kit/keys/helpers.ts": "export const up = 1;\n",
      "src/ui/agents/list-controller.ts": 'import { up } from "../kit/keys/helpers.ts";\nimport { cyclePane } from "../output/output-controller.ts";\n',
      "src/ui/output/output-controller.ts": 'import type { X } from "../flows/flows-controller.ts";\n',
      "src/ui/flows/flows-controller.ts": 'import { up } from "../kit/keys/helpers.ts";\n',
    });
    expect(controllerImports(at)).toEqual([
      "src/ui/agents/list-controller.ts → src/ui/output/output-controller.ts",
      "src/ui/output/output-controller.ts → src/ui/flows/flows-controller.ts",
    ]);
  });

  test("at most a dozen files at the top of src/ui and of each of its folders", () => {
    const crowded = [...filesPerFolder(root)].filter(([, n]) => n > 12).map(([dir, n]) => `${dir}: ${n} files`);
    expect(crowded).toEqual([]);
  });
});
