import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { importCycles, importsOf } from "../support/imports.ts";

/**
 * src/agents is laid out in folders by role (start/, processes/, output/, files/, sessions/,
 * lifecycle/, cleanup/; src/agents/README.md), with the use cases the services call in use-cases/:
 * these hold what keeps it that way.
 */

const root = join(import.meta.dir, "../..");
const agentFiles = [...new Glob("src/agents/**/*.ts").scanSync({ cwd: root })].sort();

describe("src/agents by role", () => {
  test("at most a dozen files at its top level, the rest in folders", () => {
    const top = readdirSync(join(root, "src/agents")).filter((n) => statSync(join(root, "src/agents", n)).isFile());
    expect(top.length).toBeLessThanOrEqual(12);
  });

  test("no import cycle among its files, type-only imports included", () => {
    expect(importCycles(root, agentFiles)).toEqual([]);
  });

  test("the agent runtime is built whole: no setter plugs a part in after its construction", () => {
    const setters = ["src/agents/runtime.ts", "src/agents/lifecycle/run-lifecycle.ts", "src/agents/sessions/session-watcher.ts"].flatMap((f) =>
      [...readFileSync(join(root, f), "utf8").matchAll(/^ {2}set[A-Z]\w*\(/gm)].map((m) => `${f}: ${m[0].trim()}`),
    );
    expect(setters).toEqual([]);
  });

  test("use cases never import each other: inside src/agents only compose.ts imports one, helpers none", () => {
    const importers = agentFiles.filter((f) => f !== "src/agents/compose.ts").flatMap((f) =>
      importsOf(root, f)
        .filter((t) => t.startsWith("src/agents/use-cases/"))
        .map((t) => `${f} -> ${t}`),
    );
    expect(importers).toEqual([]);
  });
});
