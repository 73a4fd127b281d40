/**
 * `npm run dist`: troupe for every platform it ships on, as npm packages.
 *  1. each platform's Bun runtime, fetched and checked by hash (dist/runtimes.ts);
 *  2. a binary per platform compiled onto it, all with one build stamp;
 *  3. a package per platform and the `troupe` package, staged in dist/packages/ (dist/packages.ts);
 *  4. `npm pack` of each into dist/npm/, every version the project's.
 * Prints each binary's size (the runtime's share and troupe's own) and each tarball's, packed and
 * unpacked. dist/packages/<id>/bin/troupe stays for `binaryIn` (src/platforms.ts).
 *
 *   npm run dist
 */
import { readFileSync, rmSync, mkdirSync, statSync } from "node:fs";
import { buildWebPage } from "./build-web.ts";
import { join, resolve } from "node:path";
import { compileBinary } from "../src/runtime/compile.ts";
import { PLATFORMS, packageName } from "../src/platforms.ts";
import { VERSION } from "../src/self.ts";
import { runtimeFor } from "./dist/runtimes.ts";
import { stageMain, stagePlatform, type Release } from "./dist/packages.ts";

const ROOT = resolve(import.meta.dir, "..");
const DIST = join(ROOT, "dist");
const PACKAGES = join(DIST, "packages");
const TARBALLS = join(DIST, "npm");
const MB = (n: number) => (n < 1e6 ? `${(n / 1e3).toFixed(1)} kB` : `${(n / 1e6).toFixed(1)} MB`);

function fail(message: string): never {
  process.stderr.write(`dist: ${message}\n`);
  process.exit(1);
}

const project = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;
const version = String(project.version);
if (version !== VERSION) fail(`package.json says version ${version}, src/self.ts ${VERSION}: make them one`);
const meta = Object.fromEntries(["license", "repository", "homepage", "bugs", "author"].filter((k) => k in project).map((k) => [k, project[k]]));
const release: Release = { version, build: String(Date.now()), description: String(project.description ?? ""), meta };

const started = performance.now();
rmSync(PACKAGES, { recursive: true, force: true });
rmSync(TARBALLS, { recursive: true, force: true });
mkdirSync(TARBALLS, { recursive: true });

// the runtimes download at once; compiling is CPU-bound, one at a time
process.stdout.write(`fetching Bun ${Bun.version} for ${PLATFORMS.length} platforms\n`);
const runtimes = await Promise.all(PLATFORMS.map((p) => runtimeFor(ROOT, join(DIST, "runtimes"), p).catch((err: Error) => fail(err.message))));
const fetched = runtimes.filter((r) => r.fetched).length;
process.stdout.write(`  ${fetched} fetched, ${runtimes.length - fetched} already here (checked by hash)\n`);

interface Row {
  label: string;
  binary?: number;
  runtime?: number;
  packed: number;
  unpacked: number;
  file: string;
}

interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
}

/** `npm pack` of a staged folder into dist/npm/, run beside the next compile (gzip of ~110 MB is most of a build). */
async function pack(dir: string): Promise<Packed> {
  const p = Bun.spawn(["npm", "pack", dir, "--pack-destination", TARBALLS, "--json"], { cwd: TARBALLS, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) fail(`npm pack ${dir}: ${err.trim()}`);
  const [info] = JSON.parse(out) as Packed[];
  if (!info) fail(`npm pack ${dir} said nothing`);
  return info;
}

// the web page, which each binary carries (src/web/assets.ts)
await buildWebPage();
const packing: Promise<Row>[] = [];
for (const [i, platform] of PLATFORMS.entries()) {
  const runtime = runtimes[i]!.path;
  const dir = join(PACKAGES, platform.id);
  const outfile = stagePlatform(dir, platform, release);
  const built = await compileBinary({
    entry: join(ROOT, "src/main.ts"),
    outfile,
    define: { TROUPE_BUILD_STAMP: JSON.stringify(release.build) },
    cross: { target: platform.bunTarget, runtime },
  });
  if (!built.ok) fail(`compiling for ${platform.id}:\n${built.errors.join("\n")}`);
  const sizes = { binary: statSync(outfile).size, runtime: statSync(runtime).size };
  packing.push(pack(dir).then((p) => ({ label: packageName(platform), ...sizes, packed: p.size, unpacked: p.unpackedSize, file: p.filename })));
}
stageMain(join(PACKAGES, "troupe"), join(ROOT, "npm", "troupe"), join(ROOT, "README.md"), release);
packing.push(pack(join(PACKAGES, "troupe")).then((p) => ({ label: "troupe (launcher)", packed: p.size, unpacked: p.unpackedSize, file: p.filename })));
const rows = await Promise.all(packing);

const w = Math.max(...rows.map((r) => r.label.length));
process.stdout.write(`\ntroupe ${version}, build ${release.build}, Bun ${Bun.version}: ${rows.length} tarballs in ${TARBALLS} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
process.stdout.write(`${"package".padEnd(w)}  ${"binary".padStart(9)}  ${"(runtime + troupe)".padEnd(20)}  ${"packed".padStart(9)}  ${"unpacked".padStart(9)}  file\n`);
for (const r of rows) {
  const split = r.binary !== undefined && r.runtime !== undefined ? `(${MB(r.runtime)} + ${MB(r.binary - r.runtime)})` : "";
  process.stdout.write(
    `${r.label.padEnd(w)}  ${(r.binary === undefined ? "" : MB(r.binary)).padStart(9)}  ${split.padEnd(20)}  ${MB(r.packed).padStart(9)}  ${MB(r.unpacked).padStart(9)}  ${r.file}\n`,
  );
}
