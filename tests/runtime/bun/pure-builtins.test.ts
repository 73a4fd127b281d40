import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { globalProcessSource } from "../../../src/runtime/bun/pure-builtins.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-pure-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the stand-in for node:process is the process global: its functions called on it, its data, and no stream", async () => {
  const file = join(dir, "process.mjs");
  writeFileSync(file, globalProcessSource(process));
  const mod = (await import(file)) as Record<string, any>;
  expect(mod.default).toBe(process);
  expect(mod.cwd()).toBe(process.cwd());
  expect(mod.env).toBe(process.env);
  expect(mod.pid).toBe(process.pid);
  expect(typeof mod.on).toBe("function");
  // importing it builds no stream: reading process.stdout would
  for (const stream of ["stdin", "stdout", "stderr"]) expect(stream in mod).toBe(false);
});
