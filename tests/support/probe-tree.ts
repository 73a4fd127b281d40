import { afterAll } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

/**
 * Small trees of files for a test that shows its check finds what it should: each call makes a
 * tree of its own (`name`) under one temp folder, removed after the test file's tests.
 */
export function probeTrees(prefix: string): (name: string, files: Record<string, string>) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, files) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, name, path)), { recursive: true });
      writeFileSync(join(dir, name, path), text);
    }
    return join(dir, name);
  };
}
