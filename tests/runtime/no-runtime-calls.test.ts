import { expect, test } from "bun:test";
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "../..");

// Deno (or any second runtime) is an adapter in src/runtime/, not a rewrite: nothing else may
// reach the runtime directly. Comments may name Bun; code may not.
test("no file of src/ outside src/runtime/ calls Bun or imports bun: modules", () => {
  const offenders: string[] = [];
  for (const file of new Glob("src/**/*.{ts,tsx}").scanSync({ cwd: root })) {
    if (file.startsWith("src/runtime/")) continue;
    readFileSync(join(root, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        const code = line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "").replace(/\/\*.*?\*\//g, "");
        if (/\bBun\.|["']bun(:[a-z]+)?["']|\bunix:\s/.test(code)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  expect(offenders).toEqual([]);
});
