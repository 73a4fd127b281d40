import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { BINARY_IN_PACKAGE, PLATFORMS, binaryIn, packageName, platformFor } from "../src/platforms.ts";

const ROOT = resolve(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "troupe-platforms-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a platform from Node's names or from uname's, with the C library on Linux", () => {
  expect(platformFor("linux", "x64")?.id).toBe("linux-x64");
  expect(platformFor("Linux", "x86_64")?.id).toBe("linux-x64");
  expect(platformFor("Linux", "aarch64", "musl")?.id).toBe("linux-arm64-musl");
  expect(platformFor("Darwin", "arm64")?.id).toBe("darwin-arm64");
  expect(platformFor("darwin", "x86_64", "musl")?.id).toBe("darwin-x64");
  for (const [os, cpu] of [["win32", "x64"], ["FreeBSD", "amd64"], ["Linux", "armv7l"], ["Linux", "i686"]] as const) expect(platformFor(os, cpu)).toBeUndefined();
  // every platform is reachable, under its own id and package
  for (const p of PLATFORMS) {
    expect(platformFor(p.os, p.cpu, p.libc)).toBe(p);
    expect(packageName(p)).toBe(`@troupe/${p.id}`);
  }
});

test("binaryIn finds a platform's binary in a folder of unpacked packages, and says null when it is not there", () => {
  const arm = platformFor("linux", "arm64")!;
  expect(binaryIn(dir, arm)).toBeNull();
  mkdirSync(join(dir, arm.id, "bin"), { recursive: true });
  writeFileSync(join(dir, arm.id, BINARY_IN_PACKAGE), "");
  chmodSync(join(dir, arm.id, BINARY_IN_PACKAGE), 0o755);
  expect(binaryIn(dir, arm)).toBe(join(dir, "linux-arm64", "bin", "troupe"));
  expect(binaryIn(dir, platformFor("linux", "x64")!)).toBeNull();
});

test("each platform's Bun runtime is pinned by package-lock.json at the version of the Bun that builds", () => {
  const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, { version: string; integrity?: string }> };
  const bun = lock.packages["node_modules/bun"]!.version;
  expect(bun).toBe(Bun.version);
  for (const p of PLATFORMS) {
    const entry = lock.packages[`node_modules/${p.runtimePackage}`];
    expect(entry?.version).toBe(bun);
    expect(entry?.integrity).toStartWith("sha512-");
  }
});
