import { existsSync } from "node:fs";
import { join } from "node:path";

/**
 * The platforms troupe ships a binary for, and where each binary lies. One npm package per
 * platform (`@troupe/linux-x64`, ...) holds `bin/troupe`; the `troupe` package lists them all as
 * optionalDependencies, and npm installs the one whose `os`, `cpu` and `libc` fit (see
 * scripts/dist.ts, npm/troupe/bin/troupe.js). `troupe remote install` (issue 21) finds the binary
 * for a remote's `uname -sm` here: `platformFor(...)`, then `binaryIn(packagesDir, platform)`.
 */
export interface Platform {
  /** The package's name under NPM_SCOPE and its folder in dist/packages/: `linux-x64-musl`. */
  id: string;
  /** npm's (and Node's) names: `process.platform`, `process.arch`. */
  os: "linux" | "darwin";
  cpu: "x64" | "arm64";
  /** Linux only: the C library the binary links against (npm's `libc` field). */
  libc?: "glibc" | "musl";
  /** Bun's cross-compile target. */
  bunTarget: string;
  /** The npm package holding that platform's Bun runtime, which the binary is built on. */
  runtimePackage: string;
}

/** The npm scope of the platform packages: the project's own, so no one else can publish a name npm would install instead. */
const NPM_SCOPE = "@troupe";

/** Where the binary lies inside a platform package. */
export const BINARY_IN_PACKAGE = "bin/troupe";

export const PLATFORMS: readonly Platform[] = [
  { id: "linux-x64", os: "linux", cpu: "x64", libc: "glibc", bunTarget: "bun-linux-x64", runtimePackage: "@oven/bun-linux-x64" },
  { id: "linux-arm64", os: "linux", cpu: "arm64", libc: "glibc", bunTarget: "bun-linux-arm64", runtimePackage: "@oven/bun-linux-aarch64" },
  { id: "linux-x64-musl", os: "linux", cpu: "x64", libc: "musl", bunTarget: "bun-linux-x64-musl", runtimePackage: "@oven/bun-linux-x64-musl" },
  { id: "linux-arm64-musl", os: "linux", cpu: "arm64", libc: "musl", bunTarget: "bun-linux-arm64-musl", runtimePackage: "@oven/bun-linux-aarch64-musl" },
  { id: "darwin-x64", os: "darwin", cpu: "x64", bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64" },
  { id: "darwin-arm64", os: "darwin", cpu: "arm64", bunTarget: "bun-darwin-arm64", runtimePackage: "@oven/bun-darwin-aarch64" },
];

/** `@troupe/linux-x64` */
export const packageName = (p: Platform): string => `${NPM_SCOPE}/${p.id}`;

const OS: Record<string, Platform["os"]> = { linux: "linux", darwin: "darwin" };
const CPU: Record<string, Platform["cpu"]> = { x64: "x64", x86_64: "x64", amd64: "x64", arm64: "arm64", aarch64: "arm64" };

/**
 * The platform of an OS and CPU named as Node does (`linux`, `arm64`) or as `uname -s` / `uname -m`
 * print them (`Linux`, `x86_64`, `aarch64`, `Darwin`), with the C library on Linux (glibc unless
 * said); undefined where troupe ships no binary (Windows, FreeBSD, 32-bit).
 */
export function platformFor(os: string, cpu: string, libc: "glibc" | "musl" = "glibc"): Platform | undefined {
  const o = OS[os.toLowerCase()];
  const c = CPU[cpu.toLowerCase()];
  if (!o || !c) return undefined;
  return PLATFORMS.find((p) => p.os === o && p.cpu === c && (o !== "linux" || p.libc === libc));
}

/**
 * The binary of `platform` in a folder of unpacked platform packages: dist/packages/ after
 * `npm run dist` (`<dir>/<id>/bin/troupe`), or a node_modules scope folder holding installed
 * ones (`node_modules/@troupe`, whose folders are named the same); null when it is not there.
 */
export function binaryIn(packagesDir: string, platform: Platform): string | null {
  const path = join(packagesDir, platform.id, BINARY_IN_PACKAGE);
  return existsSync(path) ? path : null;
}
