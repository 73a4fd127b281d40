import { afterAll, expect, test } from "bun:test";
import * as realFs from "node:fs";
import * as realCrypto from "node:crypto";
import * as realModule from "node:module";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { lazyModuleSource } from "../../../src/runtime/bun/lazy-builtins.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-lazy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The stand-in for `specifier`, written out and imported as the Deno bundle imports it. */
async function standIn(specifier: string, real: Record<string, unknown>, name: string): Promise<Record<string, any>> {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, lazyModuleSource(specifier, real));
  return (await import(file)) as Record<string, any>;
}

test("the stand-in for node:fs calls, constructs and reads through to node:fs, and exports every name it has", async () => {
  const fs = await standIn("node:fs", realFs, "fs");
  expect(Object.keys(fs).filter((k) => k !== "default").sort()).toEqual(Object.keys(realFs).filter((k) => k !== "default" && (realFs as any)[k] !== undefined).sort());
  const file = join(dir, "a.txt");
  fs.writeFileSync(file, "hello");
  expect(fs.readFileSync(file, "utf8")).toBe("hello");
  expect(fs.existsSync(join(dir, "none"))).toBe(false);
  expect(fs.statSync(file).isFile()).toBe(true);
  // an error keeps its code (callers branch on it)
  expect(() => fs.readFileSync(join(dir, "none"))).toThrow(expect.objectContaining({ code: "ENOENT" }));
  expect(fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW).toBe(realFs.constants.O_RDONLY | realFs.constants.O_NOFOLLOW);
  expect("O_EXCL" in fs.constants).toBe(true);
  expect(fs.F_OK).toBe((realFs as Record<string, unknown>).F_OK);
  expect(fs.default.readFileSync(file, "utf8")).toBe("hello");
  expect(await fs.promises.readFile(file, "utf8")).toBe("hello");
  // a class made through the stand-in is the built-in's own
  const stream = new fs.ReadStream(file);
  expect(stream).toBeInstanceOf(realFs.ReadStream);
  stream.destroy();
});

test("the stand-in for node:crypto hashes and draws random bytes as node:crypto does", async () => {
  const crypto = await standIn("node:crypto", realCrypto, "crypto");
  expect(crypto.createHash("sha256").update("troupe").digest("hex")).toBe(realCrypto.createHash("sha256").update("troupe").digest("hex"));
  expect(crypto.randomBytes(6).toString("hex")).toMatch(/^[0-9a-f]{12}$/);
});

test("the stand-in for node:module makes a require at once that loads node:module only when it is first called", async () => {
  const source = lazyModuleSource("node:module", realModule as unknown as Record<string, unknown>);
  // the bundle's CommonJS wrapper calls createRequire as it loads: that call must not load the built-in
  expect(source).toMatch(/export function createRequire\(/);
  const mod = await standIn("node:module", realModule as unknown as Record<string, unknown>, "module");
  const loads: string[] = [];
  const getBuiltinModule = process.getBuiltinModule;
  process.getBuiltinModule = ((id: string) => (loads.push(id), getBuiltinModule(id))) as typeof getBuiltinModule;
  try {
    const require = mod.createRequire(import.meta.url);
    expect(loads).toEqual([]);
    expect(require("node:path").join("a", "b")).toBe("a/b");
    expect(loads).toEqual(["node:module"]);
  } finally {
    process.getBuiltinModule = getBuiltinModule;
  }
  const require = mod.createRequire(import.meta.url);
  expect(require.resolve("node:path")).toBe("node:path");
});
