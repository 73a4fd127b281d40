import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join } from "node:path";
import { importCycles, importsOf } from "../support/imports.ts";
import { probeTrees } from "../support/probe-tree.ts";

/**
 * src/ui is laid out by feature (agents/, output/, phases/, flows/, permissions/, dialogs/, ...,
 * shared/): these hold what keeps it that way. Controllers share through keys/helpers.ts, never
 * through one another, so no import cycle may form (a type-only one neither: a type that goes
 * round is a dependency that goes round). The 400-line rule for every source file is in tests/structure.test.ts.
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

  test("controllers share through keys/helpers.ts and their features' bindings: none imports another", () => {
    expect(controllerImports(root)).toEqual([]);
  });

  test("the check finds a controller importing another", () => {
    const at = probeTree("controllers", {
      "src/ui/keys/helpers.ts": "export const up = 1;\n",
      "src/ui/agents/list-controller.ts": 'import { up } from "../keys/helpers.ts";\nimport { cyclePane } from "../output/output-controller.ts";\n',
      "src/ui/output/output-controller.ts": 'import type { X } from "../flows/flows-controller.ts";\n',
      "src/ui/flows/flows-controller.ts": 'import { up } from "../keys/helpers.ts";\n',
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
