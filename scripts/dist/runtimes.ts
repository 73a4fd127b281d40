/**
 * The Bun runtime of each platform, which its troupe binary is built on: the `@oven/bun-<platform>`
 * package at the exact version of the Bun running this build (bytecode and runtime must match),
 * fetched with `npm pack` and checked against the sha512 that package-lock.json pins for it, so a
 * tarball the registry (or a mirror) swapped since the lock was written is refused. Tarballs are
 * kept in dist/runtimes/ and checked again at each use; CI starts from a fresh clone, so it
 * fetches them every run.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Platform } from "../../src/platforms.ts";

interface LockEntry {
  version: string;
  integrity?: string;
}

/** The version and integrity package-lock.json pins for `name` (Bun's optional dependencies are all there). */
export function lockedPackage(root: string, name: string): LockEntry {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
  const entry = lock.packages[`node_modules/${name}`];
  if (!entry?.integrity) throw new Error(`package-lock.json pins no integrity for ${name}: run 'npm install' to record it`);
  return entry;
}

async function sha512(file: string): Promise<string> {
  const hash = createHash("sha512");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return `sha512-${hash.digest("base64")}`;
}

/** Runs a command to its end (several at once: the downloads overlap); throws with its last words when it fails. */
async function run(argv: string[], cwd?: string): Promise<void> {
  const p = Bun.spawn(argv, { cwd, stdout: "ignore", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${argv.join(" ")} failed: ${err.trim().split("\n").slice(-3).join(" ")}`);
}

/** `@oven/bun-linux-x64` at 1.4.5 packs to `oven-bun-linux-x64-1.4.5.tgz`. */
const tarballName = (name: string, version: string) => `${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;

/**
 * The runtime executable of `platform`, unpacked under `cacheDir`: fetched unless a tarball with
 * the locked hash is there already. Throws when the hash differs or the versions do not line up.
 */
export async function runtimeFor(root: string, cacheDir: string, platform: Platform): Promise<{ path: string; fetched: boolean }> {
  const locked = lockedPackage(root, platform.runtimePackage);
  if (locked.version !== Bun.version) {
    throw new Error(`this build runs Bun ${Bun.version}, but package-lock.json pins ${platform.runtimePackage}@${locked.version}: run 'npm ci'`);
  }
  mkdirSync(cacheDir, { recursive: true });
  const tarball = join(cacheDir, tarballName(platform.runtimePackage, locked.version));
  let fetched = false;
  if (!existsSync(tarball) || (await sha512(tarball)) !== locked.integrity) {
    rmSync(tarball, { force: true });
    await run(["npm", "pack", `${platform.runtimePackage}@${locked.version}`, "--pack-destination", cacheDir, "--silent"], cacheDir);
    fetched = true;
  }
  const actual = await sha512(tarball);
  if (actual !== locked.integrity) {
    rmSync(tarball, { force: true });
    throw new Error(`${platform.runtimePackage}@${locked.version}: the tarball's hash ${actual} is not the one package-lock.json pins (${locked.integrity})`);
  }
  const dir = join(cacheDir, platform.id);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  await run(["tar", "-xzf", tarball, "-C", dir, "package/bin/bun"]);
  return { path: join(dir, "package", "bin", "bun"), fetched };
}
