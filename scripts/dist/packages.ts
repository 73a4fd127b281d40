/**
 * The npm packages of one `npm run dist`, staged as folders before `npm pack`: one per platform
 * (its binary and a package.json whose os/cpu/libc let npm install it only where it runs), and
 * `troupe` itself (the launcher, every platform package as an optional dependency at the same
 * version). No package has dependencies or install scripts: the binary holds all of troupe.
 */
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY_IN_PACKAGE, PLATFORMS, packageName, type Platform } from "../../src/platforms.ts";

/** What every package of one run carries alike. */
export interface Release {
  version: string;
  /** The build stamp baked into every binary (ms since the epoch, as `troupe --version` shows it). */
  build: string;
  description: string;
  /** Fields copied into each package.json when the project's has them (license, repository, ...). */
  meta: Record<string, unknown>;
}

const OS_NAME: Record<Platform["os"], string> = { linux: "Linux", darwin: "macOS" };

const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Stages `<dir>/` for a platform package; returns the path its binary must be written to. */
export function stagePlatform(dir: string, platform: Platform, release: Release): string {
  mkdirSync(join(dir, "bin"), { recursive: true });
  const where = `${OS_NAME[platform.os]} ${platform.cpu}${platform.libc ? ` (${platform.libc})` : ""}`;
  writeJson(join(dir, "package.json"), {
    name: packageName(platform),
    version: release.version,
    description: `The troupe binary for ${where}. Install troupe itself: npm i -g troupe`,
    ...release.meta,
    os: [platform.os],
    cpu: [platform.cpu],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    files: [BINARY_IN_PACKAGE],
    // Yarn's Plug'n'Play would otherwise leave the binary inside a zip, where nothing can run it
    preferUnplugged: true,
    troupe: { build: release.build, bunTarget: platform.bunTarget },
  });
  writeFileSync(
    join(dir, "README.md"),
    `# ${packageName(platform)}\n\nThe prebuilt \`troupe\` binary for ${where}, version ${release.version}.\n` +
      "The `troupe` package installs it (as an optional dependency npm picks by os, cpu and libc):\n\n" +
      "```sh\nnpm i -g troupe\n```\n",
  );
  return join(dir, BINARY_IN_PACKAGE);
}

/** Stages `<dir>/` for the `troupe` package: the launcher (from npm/troupe/), the README, every platform package as optional. */
export function stageMain(dir: string, templateDir: string, readme: string, release: Release): void {
  mkdirSync(join(dir, "bin"), { recursive: true });
  const launcher = join(dir, "bin", "troupe.js");
  copyFileSync(join(templateDir, "bin", "troupe.js"), launcher);
  chmodSync(launcher, 0o755);
  copyFileSync(readme, join(dir, "README.md"));
  writeJson(join(dir, "package.json"), {
    name: "troupe",
    version: release.version,
    description: release.description,
    ...release.meta,
    bin: { troupe: "bin/troupe.js" },
    files: ["bin/troupe.js"],
    // the launcher runs on any Node npm itself runs on; the binaries exist for these only
    engines: { node: ">=18" },
    os: [...new Set(PLATFORMS.map((p) => p.os))],
    cpu: [...new Set(PLATFORMS.map((p) => p.cpu))],
    optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [packageName(p), release.version])),
    troupe: { build: release.build },
  });
}
