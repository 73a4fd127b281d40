import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dirname, "../..");

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["']([^"']+)["']/g;

/** A line without its comment: comments may name either runtime, code may not. */
const code = (line: string) => line.replace(/\/\/.*$/, "").replace(/^\s*\*.*$/, "").replace(/\/\*.*?\*\//g, "");

/**
 * Every source file the program reaches from src/main.ts (static, type-only and dynamic imports)
 * when package.json's "imports" resolves `#runtime/` under `condition`, as the runtime does.
 */
function graph(condition: "bun" | "deno"): { files: string[]; externals: Map<string, string> } {
  const map = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).imports["#runtime/*"] as Record<string, string>;
  const files = new Set<string>();
  const externals = new Map<string, string>(); // specifier -> first importer
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const text = readFileSync(join(root, file), "utf8").split("\n").map(code).join("\n");
    for (const [, spec] of text.matchAll(IMPORT)) {
      let target: string | null = null;
      if (spec!.startsWith(".")) target = relative(root, resolve(root, dirname(file), spec!));
      else if (spec!.startsWith("#runtime/")) target = relative(root, resolve(root, map[condition]!.replace("*", spec!.slice("#runtime/".length))));
      else if (!externals.has(spec!)) externals.set(spec!, file);
      if (target !== null) {
        if (!existsSync(join(root, target))) throw new Error(`${file} imports ${spec}, which resolves to nothing under "${condition}"`);
        visit(target);
      }
    }
  };
  visit("src/main.ts");
  return { files: [...files], externals };
}

/** Lines of `files` whose code matches `pattern`, as `file:line: text`. */
function offenders(files: string[], pattern: RegExp): string[] {
  const out: string[] = [];
  for (const file of files) {
    readFileSync(join(root, file), "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (pattern.test(code(line))) out.push(`${file}:${i + 1}: ${line.trim()}`);
      });
  }
  return out;
}

describe("each runtime's module graph holds nothing of the other", () => {
  test("under Deno: no bun: module, no Bun global, no Bun adapter", () => {
    const { files, externals } = graph("deno");
    expect(files).toContain("src/runtime/deno/sqlite.ts");
    expect(files.filter((f) => f.startsWith("src/runtime/bun/"))).toEqual([]);
    expect([...externals].filter(([spec]) => /^bun(:|$)/.test(spec))).toEqual([]);
    expect(offenders(files, /\bBun\.|\$bunfs/)).toEqual([]);
  });

  test("under Bun: no Deno global, no Deno adapter", () => {
    const { files } = graph("bun");
    expect(files).toContain("src/runtime/bun/sqlite.ts");
    expect(files.filter((f) => f.startsWith("src/runtime/deno/"))).toEqual([]);
    expect(offenders(files, /\bDeno\./)).toEqual([]);
  });

  test("every facade's #runtime/ module exists in both adapters", () => {
    // a module one adapter lacks would fail only when that runtime first loads it, maybe mid-session
    const facades = readdirSync(join(root, "src/runtime")).filter((f) => f.endsWith(".ts") && f !== "contract.ts");
    const missing: string[] = [];
    for (const facade of facades) {
      for (const [, name] of readFileSync(join(root, "src/runtime", facade), "utf8").matchAll(/["']#runtime\/([^"']+)["']/g)) {
        for (const adapter of ["bun", "deno"]) if (!existsSync(join(root, "src/runtime", adapter, name!))) missing.push(`src/runtime/${adapter}/${name}`);
      }
    }
    expect(facades.length).toBeGreaterThan(8);
    expect(missing).toEqual([]);
  });
});
