import { afterAll, describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const root = join(import.meta.dirname, "../..");

/** Reaching a runtime directly: its globals, its modules, Bun's ESM `require`, `import.meta.dir`, Bun's compiled-file paths. */
const BUN = /\bBun\.|(?:\bfrom|\bimport)\s*\(?\s*["']bun(:[a-z]+)?["']|\bunix:\s|\$bunfs|\bimport\.meta\.dir\b|(?<![.\w])require\s*\(/;
const DENO = /\bDeno\.|(?:\bfrom|\bimport)\s*\(?\s*["'](jsr|npm):/;
const ANY = new RegExp(`${BUN.source}|${DENO.source}`);

/** Which files may name which runtime: adapters their own, nothing else either (comments may name Bun; code may not). */
const RULES: { files: string; except?: (file: string) => boolean; forbidden: RegExp }[] = [
  { files: "src/**/*.{ts,tsx}", except: (f) => f.startsWith("src/runtime/bun/") || f.startsWith("src/runtime/deno/"), forbidden: ANY },
  { files: "src/runtime/bun/**/*.ts", forbidden: DENO },
  { files: "src/runtime/deno/**/*.ts", forbidden: BUN },
  { files: "providers/**/*.ts", forbidden: ANY },
  { files: "scripts/**/*.ts", forbidden: ANY },
];

/** Files that reach Bun on purpose, each with its reason (a stale one fails the test below). */
const EXCEPTIONS: { file: string; why: string }[] = [
  { file: "scripts/dist.ts", why: "npm run dist packs Bun-compiled binaries onto the Bun runtime of the running Bun's own version (Bun.version)" },
  { file: "scripts/dist/runtimes.ts", why: "fetches each platform's Bun runtime at the running Bun's version (Bun.version), which the bytecode needs" },
  // dev tools main added after the Deno port, not yet moved onto node: modules and scripts/lib/ (run under Bun)
  { file: "scripts/check-clis.ts", why: "not yet ported: Bun.spawn with its timeout option, import.meta.dir" },
  { file: "scripts/recorder.ts", why: "not yet ported: Bun.spawn with a stdin buffer, detached" },
  { file: "scripts/fake-chat-completions.ts", why: "not yet ported: Bun.serve (serveLocal is async: its callers would await it)" },
  { file: "scripts/bench/binary-size.ts", why: "measures variants of the Bun build's own configuration (Bun.build)" },
  {
    file: "scripts/stress/fuzz.ts",
    why: "Bun.connect: a daemon that answers before a case's body is all sent makes the next write fail, and node:net then drops the answer unread",
  },
];

function offenders(dir: string): string[] {
  const out: string[] = [];
  for (const rule of RULES) {
    for (const file of new Glob(rule.files).scanSync({ cwd: dir })) {
      if (rule.except?.(file) || EXCEPTIONS.some((e) => e.file === file)) continue;
      readFileSync(join(dir, file), "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.replace(/(^|\s)\/\/.*$/, "").replace(/^\s*\*.*$/, "").replace(/\/\*.*?\*\//g, "");
          if (rule.forbidden.test(code)) out.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
  }
  return out;
}

const probe = mkdtempSync(join(tmpdir(), "troupe-rt-calls-"));
afterAll(() => rmSync(probe, { recursive: true, force: true }));

function probeFile(path: string, text: string): void {
  mkdirSync(dirname(join(probe, path)), { recursive: true });
  writeFileSync(join(probe, path), text);
}

// Deno (or any other runtime) is an adapter in src/runtime/, not a rewrite: nothing else may reach
// a runtime directly, and each adapter reaches only its own.
describe("runtime calls stay in their adapter", () => {
  test("src/ outside src/runtime/{bun,deno}/, providers/ and scripts/ call no runtime; each adapter only its own", () => {
    expect(offenders(root)).toEqual([]);
  });

  test("every exception still reaches Bun (a stale one would hide nothing and mislead)", () => {
    for (const e of EXCEPTIONS) expect(BUN.test(readFileSync(join(root, e.file), "utf8"))).toBe(true);
  });

  test("the check finds each way of reaching a runtime, and leaves comments and look-alikes alone", () => {
    probeFile("src/a.ts", 'const w = Bun.which("x");\n');
    probeFile("src/b.ts", 'import { Database } from "bun:sqlite";\n');
    probeFile("src/c.ts", 'export const compiled = import.meta.url.includes("$bunfs");\n');
    probeFile("src/d.ts", 'const tty = require("node:tty");\n');
    probeFile("src/e.ts", "const here = import.meta.dir;\n");
    // a URL's // is no comment: what follows it on the line is still read
    probeFile("scripts/k.ts", 'await fetch("http://troupe/v1/health", { unix: socket });\n');
    probeFile("providers/f.ts", "const v = Deno.version;\n");
    probeFile("scripts/g.ts", "await Bun.sleep(5);\n");
    probeFile("src/runtime/deno/h.ts", 'import { dlopen } from "bun:ffi";\n');
    probeFile("src/runtime/bun/i.ts", "Deno.exit(1);\n");
    probeFile("src/runtime/portable/j.ts", "Bun.gc(true);\n");
    probeFile("src/runtime/bun/ok.ts", 'import { dlopen } from "bun:ffi";\nBun.gc(true);\n');
    probeFile("src/runtime/deno/ok.ts", "Deno.dlopen('libc.so.6', {});\n");
    probeFile("src/ok.ts", '// Bun.which is what Bun has\nconst here = import.meta.dirname;\nconst r = x.require("a");\nconst u = "unixsocket";\nconst url = "http://troupe"; // Bun.which\n');
    expect(offenders(probe).map((o) => o.split(":")[0]).sort()).toEqual([
      "providers/f.ts",
      "scripts/g.ts",
      "scripts/k.ts",
      "src/a.ts",
      "src/b.ts",
      "src/c.ts",
      "src/d.ts",
      "src/e.ts",
      "src/runtime/bun/i.ts",
      "src/runtime/deno/h.ts",
      "src/runtime/portable/j.ts",
    ]);
  });
});
