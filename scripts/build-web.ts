/**
 * Builds the web page (src/web/page/) for the browser into src/web/assets.gen.json, which the web
 * process imports (src/web/assets.ts): the page's files are inside every binary and bundle, for
 * either runtime. Not kept in git: every build (scripts/build.ts, build-deno.ts, dist.ts) and
 * `npm run typecheck` make it first. Prints the page's weight, all of it gzipped, beside the files
 * (docs/web.md, "Figures").
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { bundlePage } from "../src/runtime/compile.ts";

const ROOT = resolve(import.meta.dirname, "..");
const PAGE = join(ROOT, "src", "web", "page");
const OUT = join(ROOT, "src", "web", "assets.gen.json");

/** Writes src/web/assets.gen.json (only when it changed); says the page's weight unless `quiet`. */
export async function buildWebPage(quiet = false): Promise<void> {
  const built = await bundlePage(join(PAGE, "main.tsx"));
  if (!built.ok) throw new Error(`the web page did not build:\n${built.errors.join("\n")}`);
  const files: Record<string, string> = { ...built.files, "page.css": readFileSync(join(PAGE, "page.css"), "utf8") };
  // the chunks the entry imports at once: the shell preloads them beside it (one round trip, not two)
  const preload = [...(files["main.js"] ?? "").matchAll(/\bfrom\s*"\.\/(chunk-[\w-]+\.js)"/g)].map((m) => m[1]!);
  const text = `${JSON.stringify({ entry: "main.js", preload, files })}\n`;
  let old = "";
  try {
    old = readFileSync(OUT, "utf8");
  } catch {}
  if (old !== text) writeFileSync(OUT, text);
  const gz = Object.values(files).reduce((n, t) => n + gzipSync(t, { level: 9 }).byteLength, 0);
  if (!quiet) process.stdout.write(`built the web page: ${Object.keys(files).length} files, ${(gz / 1024).toFixed(1)} KB gzipped in all\n`);
}

if (import.meta.main) {
  try {
    await buildWebPage(process.argv.includes("--quiet"));
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
