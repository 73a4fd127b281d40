/**
 * The tarballs of `npm run dist` (dist/npm/), for the tests that check them as a stranger gets
 * them (tests/dist/). Those run from `npm run test:dist`, which packs them afresh and sets
 * TROUPE_DIST_TESTS=1; `npm test` leaves their folder out (package.json), so they are not counted as skipped (tarballs left from an earlier run may be stale).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PLATFORMS, type Platform } from "../../src/platforms.ts";
import { ROOT } from "./sandbox.ts";

const DIST_NPM = join(ROOT, "dist", "npm");
export const DIST_TESTS = process.env.TROUPE_DIST_TESTS === "1";
const VERSION = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/** `troupe-0.1.0.tgz` */
export const MAIN_TARBALL = join(DIST_NPM, `troupe-${VERSION}.tgz`);
/** `troupe-linux-x64-0.1.0.tgz` for @troupe/linux-x64 */
export const platformTarball = (p: Platform): string => join(DIST_NPM, `troupe-${p.id}-${VERSION}.tgz`);

/** The tarballs of this version that are missing. */
export const missingTarballs = (): string[] => [MAIN_TARBALL, ...PLATFORMS.map(platformTarball)].filter((t) => !existsSync(t));

/** Unpacks a tarball into `dir` (its files under `dir/package/`). */
export function unpack(tarball: string, dir: string): string {
  const r = Bun.spawnSync(["tar", "-xzf", tarball, "-C", dir], { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`tar -xzf ${tarball}: ${r.stderr.toString()}`);
  return join(dir, "package");
}
