/**
 * The tarballs `npm run dist` packed, as the registry would hand them out (run by `npm run
 * test:dist`): each platform package holds an executable for its platform (ELF or Mach-O header,
 * CPU, C library, signature) with the build stamp the whole run shares; the troupe package has no
 * install script and no dependency but the platform packages, all at its version. The binary of
 * this machine runs; the Linux arm64 one too where qemu-user can run it (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BINARY_IN_PACKAGE, PLATFORMS, packageName, platformFor, type Platform } from "../../src/platforms.ts";
import { DIST_TESTS, MAIN_TARBALL, missingTarballs, platformTarball, unpack } from "../support/dist.ts";
import { readExecutable } from "../support/executable.ts";

interface Manifest {
  name: string;
  version: string;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  bin?: Record<string, string>;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  troupe?: { build: string };
}

let dir: string;
let main: { root: string; manifest: Manifest };
const manifestOf = (root: string) => JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Manifest;

/** `file` of every file in a package folder, relative to it. */
function filesIn(root: string, at = ""): string[] {
  return readdirSync(join(root, at), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesIn(root, join(at, e.name)) : [join(at, e.name)]));
}

/** How each platform's binary can run on this machine, when it can at all. */
function runnerFor(p: Platform): string[] | null {
  const host = platformFor(process.platform, process.arch);
  if (host?.id === p.id) return [];
  if (p.id === "linux-arm64" && Bun.which("qemu-aarch64") && existsSync("/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1")) return ["qemu-aarch64", "-L", "/usr/aarch64-linux-gnu"];
  return null;
}

describe.if(DIST_TESTS)("the packed npm packages", () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "troupe-dist-"));
    if (missingTarballs().length > 0) return;
    const root = unpack(MAIN_TARBALL, mkdtempSync(join(dir, "main-")));
    main = { root, manifest: manifestOf(root) };
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("every tarball of this version is there", () => {
    expect(missingTarballs()).toEqual([]);
  });

  test("troupe: the launcher as its bin, every platform package optional at its own version, no install script, nothing else", () => {
    const m = main.manifest;
    expect(m.name).toBe("troupe");
    expect(m.bin).toEqual({ troupe: "bin/troupe.js" });
    expect(m.scripts).toBeUndefined();
    expect(m.dependencies).toBeUndefined();
    expect(m.optionalDependencies).toEqual(Object.fromEntries(PLATFORMS.map((p) => [packageName(p), m.version])));
    expect(filesIn(main.root).sort()).toEqual(["README.md", "bin/troupe.js", "package.json"]);
    expect(statSync(join(main.root, "bin/troupe.js")).mode & 0o111).toBeTruthy();
    expect(readFileSync(join(main.root, "bin/troupe.js"), "utf8")).toStartWith("#!/usr/bin/env node\n");
  });

  for (const p of PLATFORMS) {
    test(`${packageName(p)}: an executable for ${p.os} ${p.cpu}${p.libc ? ` (${p.libc})` : ""}, of this run's version and build`, async () => {
      const root = unpack(platformTarball(p), mkdtempSync(join(dir, `${p.id}-`)));
      try {
        const m = manifestOf(root);
        expect(m).toMatchObject({ name: packageName(p), version: main.manifest.version, os: [p.os], cpu: [p.cpu], troupe: { build: main.manifest.troupe!.build } });
        expect(m.libc).toEqual(p.libc ? [p.libc] : undefined);
        expect(m.scripts).toBeUndefined();
        expect(m.dependencies).toBeUndefined();
        expect(filesIn(root).sort()).toEqual(["README.md", BINARY_IN_PACKAGE, "package.json"]);

        const binary = join(root, BINARY_IN_PACKAGE);
        expect(statSync(binary).mode & 0o111).toBeTruthy();
        const bytes = readFileSync(binary);
        const exe = readExecutable(bytes);
        expect(exe?.cpu).toBe(p.cpu);
        if (p.os === "linux") {
          expect(exe?.format).toBe("elf");
          // the loader names the C library the binary was linked against
          expect(exe?.interpreter).toMatch(p.libc === "musl" ? /^\/lib\/ld-musl-(x86_64|aarch64)\.so\.1$/ : /^\/lib(64)?\/ld-linux-(x86-64|aarch64)\.so\.[12]$/);
        } else {
          expect(exe).toMatchObject({ format: "macho", signed: true });
        }
        // one build stamp for the whole run, baked into each binary
        expect(bytes.includes(Buffer.from(`"${main.manifest.troupe!.build}"`))).toBe(true);

        const runner = runnerFor(p);
        if (runner) {
          const run = Bun.spawnSync([...runner, binary, "--version"], { stdout: "pipe", stderr: "pipe" });
          expect(run.stderr.toString()).toBe("");
          const iso = new Date(Number(main.manifest.troupe!.build)).toISOString();
          expect(run.stdout.toString()).toBe(`troupe ${m.version} (build ${iso}, bun ${Bun.version}, ${p.os}-${p.cpu})\n`);
          // a command whose code lives in chunks loaded later (client, providers, zod): they load too
          const doctor = Bun.spawnSync([...runner, binary, "doctor", "--json"], { cwd: dir, stdout: "pipe", stderr: "pipe", env: { ...process.env, TROUPE_SOCKET: join(dir, "d.sock") } });
          expect(doctor.stderr.toString()).toBe("");
          expect((JSON.parse(doctor.stdout.toString()) as { checks: unknown[] }).checks.length).toBeGreaterThan(5);
        }
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  }
});
