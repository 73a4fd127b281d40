import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");
const importsOf = (file: string) =>
  [...readFileSync(join(root, file), "utf8").matchAll(/^\s*import\s+(?:type\s+)?[^"';]*?from\s+"([^"]+)"/gm)]
    .filter((m) => !/^\s*import\s+type\s/.test(m[0]))
    .map((m) => m[1]!);
const files = (pattern: string) => [...new Glob(pattern).scanSync({ cwd: root })];

describe("layer boundaries", () => {
  test("the dashboard reaches the daemon only through the client", () => {
    for (const f of [...files("src/ui/**/*.{ts,tsx}"), ...files("src/output/**/*.ts")]) {
      for (const spec of importsOf(f)) {
        expect(`${f} → ${spec}`).not.toMatch(/→ .*\/(store|daemon|agents|work|git)\//);
      }
    }
  });

  test("no command but the dashboard loads Ink or React, and it only lazily", () => {
    for (const f of files("src/{cli,client,protocol,output}/**/*.ts")) {
      for (const spec of importsOf(f)) {
        expect(`${f} → ${spec}`).not.toMatch(/→ (ink|react|ink-.*)$|→ .*\/ui\//);
      }
    }
    expect(readFileSync(join(root, "src/cli/dashboard.ts"), "utf8")).toContain('await import("../ui/run.tsx")');
  });
});
