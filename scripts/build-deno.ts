/**
 * Builds dist/troupe-deno: troupe on Deno. First the program for Deno (Bun's bundler with the
 * "deno" condition, so #runtime/ resolves to src/runtime/deno/), in dist/deno/. Then `deno
 * compile` of it where Deno can get its compile runtime (denort: from Deno's own host, or
 * DENORT_BIN), kept only if the result runs as troupe; otherwise a launcher that runs the
 * bundle with the project's Deno (the `deno` devDependency). One line says which it built.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { bundleProgram } from "../src/runtime/compile.ts";
import { buildWebPage } from "./build-web.ts";
import { which } from "../src/runtime/process.ts";
import { DENO_BUNDLE_FLAGS, DENO_RUN_FLAGS } from "../src/runtime/deno/flags.ts";

const ROOT = resolve(import.meta.dirname, "..");
const outfile = resolve(process.argv[2] ?? join(ROOT, "dist", "troupe-deno"));
const bundleDir = join(dirname(outfile), "deno");
const COMPILE_TIMEOUT_MS = 180_000;

function fail(message: string): never {
  process.stderr.write(`build:deno: ${message}\n`);
  process.exit(1);
}

/** The project's Deno (node_modules/.bin/deno), else one on PATH. */
function findDeno(): string {
  const own = join(ROOT, "node_modules", ".bin", "deno");
  if (existsSync(own)) return realpathSync(own);
  return which("deno", process.env.PATH ?? "") ?? fail("no deno: run `npm ci` (deno is a devDependency) or put deno on PATH");
}

/** Deno's error and its first cause ("Writing ...: error sending request for url (https://dl.deno.land/...)"), on one line. */
function compileError(stderr: string): string {
  const lines = stderr.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const error = lines.find((l) => l.startsWith("error:"))?.slice(6).trim() ?? lines.find((l) => l.trim())?.trim() ?? "";
  const cause = lines.find((l) => /^\s*1: /.test(l))?.replace(/^\s*1: /, "").trim();
  return cause ? `${error}: ${cause}` : error;
}

/** `deno compile` of the bundle into a temp file, and the file if it runs as troupe; else why not, in one line. */
function tryCompile(deno: string, main: string): { ok: true; file: string } | { ok: false; why: string } {
  const tmp = mkdtempSync(join(dirname(outfile), ".troupe-deno-"));
  const file = join(tmp, "troupe-deno");
  const args = ["compile", "--quiet", ...DENO_RUN_FLAGS, ...DENO_BUNDLE_FLAGS, "--include", bundleDir, "--output", file, main];
  const built = spawnSync(deno, args, { encoding: "utf8", timeout: COMPILE_TIMEOUT_MS, stdio: ["ignore", "pipe", "pipe"] });
  const firstLine = (text: string) => text.split("\n").find((l) => l.trim() !== "")?.trim() ?? "";
  const give = (why: string) => {
    rmSync(tmp, { recursive: true, force: true });
    return { ok: false as const, why };
  };
  if (built.error) return give(`deno compile: ${built.error.message}`);
  if (built.status !== 0) return give(`deno compile failed: ${compileError(built.stderr)}`);
  // a denort that is not one (DENORT_BIN at the full deno) makes a program that opens the REPL
  const ran = spawnSync(file, ["--version"], { encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] });
  if (!ran.stdout.startsWith("troupe ")) return give(`the compiled program does not run troupe (it printed ${JSON.stringify(firstLine(ran.stdout + ran.stderr).slice(0, 60))}; is DENORT_BIN a denort?)`);
  return { ok: true, file };
}

/** A shell launcher that runs the bundle with the project's Deno, both found relative to where it lies. */
function writeLauncher(deno: string, why: string): void {
  const here = dirname(outfile);
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const flags = [...DENO_RUN_FLAGS, ...DENO_BUNDLE_FLAGS].map(q).join(" ");
  writeFileSync(
    outfile,
    `#!/bin/sh
# troupe on Deno, written by scripts/build-deno.ts: the bundle in ${relative(here, bundleDir)}/ run by the
# project's Deno (a single executable needs \`deno compile\`, which could not be used: ${why.replace(/\n/g, " ")})
self=$0
[ -L "$self" ] && self=$(readlink -f "$self")
here=\${self%/*}
deno="$here/"${q(relative(here, deno))}
[ -x "$deno" ] || deno=$(command -v deno) || { echo "troupe-deno: no deno at $here/${relative(here, deno)} nor on PATH (npm ci)" >&2; exit 127; }
# Deno asks dl.deno.land for a newer release at each start where its cache folder has no recent
# answer: a DNS lookup and a request for every troupe command offline (tests/integration/name-lookup)
DENO_NO_UPDATE_CHECK=1 exec "$deno" run ${flags} "$here/"${q(relative(here, join(bundleDir, "main.js")))} "$@"
`,
  );
  chmodSync(outfile, 0o755);
}

// the web page, which the bundle carries (src/web/assets.ts)
await buildWebPage();
rmSync(bundleDir, { recursive: true, force: true });
const bundled = await bundleProgram({
  entry: join(ROOT, "src", "main.ts"),
  outdir: bundleDir,
  define: {
    TROUPE_BUILD_STAMP: JSON.stringify(String(Date.now())),
    // the bundle names its launcher as the command that runs it (src/runtime/deno/process.ts)
    TROUPE_DENO_LAUNCHER: JSON.stringify(relative(bundleDir, outfile)),
  },
  conditions: ["deno"],
});
if (!bundled.ok) fail(bundled.errors.join("\n"));

const deno = findDeno();
const compiled = process.env.TROUPE_DENO_NO_COMPILE ? { ok: false as const, why: "TROUPE_DENO_NO_COMPILE is set" } : tryCompile(deno, join(bundleDir, "main.js"));
rmSync(outfile, { force: true });
if (compiled.ok) {
  renameSync(compiled.file, outfile);
  rmSync(dirname(compiled.file), { recursive: true, force: true });
  process.stdout.write(`built ${relative(process.cwd(), outfile)}: deno compile, one executable\n`);
} else {
  writeLauncher(deno, compiled.why);
  process.stdout.write(`built ${relative(process.cwd(), outfile)}: the bundle in ${relative(process.cwd(), bundleDir)}/ and a launcher running it with ${relative(process.cwd(), deno)} (no deno compile: ${compiled.why})\n`);
}
