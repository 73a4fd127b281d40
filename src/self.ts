import { basename, dirname } from "node:path";
import { dashboardEnv, exec, runtime, selfCommand as runtimeSelfCommand } from "./runtime/process.ts";
import { program } from "./runtime/program.ts";

/** The argv that runs this same troupe again: the binary, or the runtime with its flags and the entry script. */
export function selfCommand(): string[] {
  return runtimeSelfCommand();
}

/** True when this troupe is one executable (Bun's or `deno compile`'s), not a runtime running a script or a bundle. */
export function isCompiled(): boolean {
  const self = selfCommand();
  return self.length === 1 && self[0] === process.execPath;
}

/** Set in a troupe that restartQuiet started again: the variables it added, to take back out. */
const QUIET_ADDED = "TROUPE_QUIET_ADDED";

/**
 * Starts this troupe again in place (same pid and terminal), once, with the runtime's settings
 * for the dashboard (`dashboardEnv()`: quiet while idle, a cheaper start), which the runtime
 * reads only when a process starts: a long-lived process whose parent did not set them (the
 * dashboard, started from a person's shell) gets them no other way. ("Quiet" names the first of
 * them; TROUPE_QUIET_ADDED lists them all.) Variables already set keep their values. The
 * restarted process takes the added ones back out of `process.env`, so what it starts (agents,
 * an editor) gets the person's environment. Returns when there is nothing to add or the runtime
 * cannot exec.
 */
export function restartQuiet(): void {
  // restarted, or started with them (quietStartEnv): only to take them back out
  const added = process.env[QUIET_ADDED];
  if (added !== undefined) {
    for (const name of added.split(",")) delete process.env[name];
    delete process.env[QUIET_ADDED];
    return;
  }
  const missing = Object.entries(dashboardEnv()).filter(([name]) => process.env[name] === undefined);
  if (missing.length === 0) return;
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  for (const [name, value] of missing) env[name] = value;
  env[QUIET_ADDED] = missing.map(([name]) => name).join(",");
  exec([...selfCommand(), ...process.argv.slice(2)], env);
}

/**
 * What a troupe that runs long beside an agent (its sandbox's network proxy and bridge) is started
 * with, so that restartQuiet has nothing to add and it starts once, not twice (a restart costs a
 * whole start, ~10 ms each, on every spawn): the quiet settings `env` lacks, and their list.
 */
export function quietStartEnv(env: Record<string, string | undefined>): Record<string, string> {
  const missing = Object.entries(dashboardEnv()).filter(([name]) => env[name] === undefined);
  if (missing.length === 0) return {};
  return { ...Object.fromEntries(missing), [QUIET_ADDED]: missing.map(([name]) => name).join(",") };
}

/**
 * The folder that holds this troupe as an executable named `troupe`, to put first on an agent's
 * PATH; null when there is none (run from source, by Deno, or a binary of another name), and the
 * daemon writes a shim that runs selfCommand() instead.
 */
export function selfBinDir(): string | null {
  const [bin, ...rest] = selfCommand();
  return bin !== undefined && rest.length === 0 && basename(bin) === "troupe" ? dirname(bin) : null;
}

export const VERSION = "0.1.0";

// Replaced by scripts/build.ts with the build time; absent when running from source.
declare const TROUPE_BUILD_STAMP: string | undefined;

/**
 * This build, as every request names it to the daemon (`0.1.0+<build time in ms>`): two builds
 * of one version still differ, so a daemon left running by an older binary is recognised.
 * TROUPE_TEST_BUILD_VERSION stands in for a second build in tests.
 */
export const BUILD_VERSION =
  program.env("TROUPE_TEST_BUILD_VERSION") || (typeof TROUPE_BUILD_STAMP === "string" ? `${VERSION}+${TROUPE_BUILD_STAMP}` : VERSION);

/** What `troupe --version` tells: the version, the build (null from source), the runtime and the platform. */
export interface VersionInfo {
  version: string;
  /** The build time, as the build stamped it (ms since the epoch). */
  build: string | null;
  runtime: { name: string; version: string };
  platform: string;
}

export function versionInfo(): VersionInfo {
  return {
    version: VERSION,
    build: typeof TROUPE_BUILD_STAMP === "string" ? TROUPE_BUILD_STAMP : null,
    runtime: { name: runtime.name, version: runtime.version },
    platform: program.platform(),
  };
}

/** `troupe 0.1.0 (build 2026-11-26T20:35:25.284Z, bun 1.4.5, linux-x64)` */
export function versionLine(v: VersionInfo = versionInfo()): string {
  const build = v.build === null ? "from source" : `build ${new Date(Number(v.build)).toISOString()}`;
  return `troupe ${v.version} (${build}, ${v.runtime.name} ${v.runtime.version}, ${v.platform})`;
}

/** The request header that carries the client's BUILD_VERSION. */
export const VERSION_HEADER = "troupe-version";

/**
 * The request header that names the workspace the client resolved (URI-encoded: a header holds
 * no arbitrary bytes), so that a daemon of another one refuses instead of acting there.
 */
export const WORKSPACE_HEADER = "troupe-workspace";

/**
 * Orders two build versions: semver first, then the build stamp. A side without a stamp (a
 * run from source) is neither newer nor older than a build of the same version.
 */
export function compareVersions(a: string, b: string): -1 | 0 | 1 {
  const [av = "", as] = a.split("+");
  const [bv = "", bs] = b.split("+");
  const ap = av.split(".").map(Number);
  const bp = bv.split(".").map(Number);
  for (let i = 0; i < Math.max(ap.length, bp.length); i++) {
    const x = ap[i] ?? 0;
    const y = bp[i] ?? 0;
    if (Number.isNaN(x) || Number.isNaN(y)) return 0; // not a version we can order: do not act on it
    if (x !== y) return x < y ? -1 : 1;
  }
  if (as === undefined || bs === undefined || !/^\d+$/.test(as) || !/^\d+$/.test(bs) || as === bs) return 0;
  return Number(as) < Number(bs) ? -1 : 1;
}
