import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PROVIDERS, detectProvider, detectProviders, getProvider, parseVersion } from "../../providers/index.ts";
import { packageVersion } from "../../providers/package-version.ts";

const bin = mkdtempSync(join(tmpdir(), "troupe-detect-"));
const slowBin = mkdtempSync(join(tmpdir(), "troupe-detect-slow-"));
afterAll(() => {
  rmSync(bin, { recursive: true, force: true });
  rmSync(slowBin, { recursive: true, force: true });
});

function fakeBinary(name: string, script: string, dir = bin): void {
  const path = join(dir, name);
  // The version command runs with the searched PATH (only `bin` here), so tools come from the system.
  writeFileSync(path, `#!/bin/sh\nPATH=/usr/bin:/bin\n${script}\n`);
  chmodSync(path, 0o755);
}

describe("detectProvider", () => {
  const codex = getProvider("codex")!;
  const gemini = getProvider("gemini")!;

  test("a binary on PATH reports installed, its path and version", async () => {
    fakeBinary("codex", 'echo "codex-cli 9.8.7"');
    const d = await detectProvider(codex, { path: bin });
    expect(d).toEqual({ name: "codex", installed: true, path: join(bin, "codex"), version: "9.8.7", install: codex.install });
  });

  test("a missing binary reports not installed with the install hint", async () => {
    const d = await detectProvider(gemini, { path: bin });
    expect(d).toEqual({ name: "gemini", installed: false, install: "npm install -g @google/gemini-cli" });
  });

  test("a version command that hangs or fails still counts as installed, without a version", async () => {
    fakeBinary("aider", "sleep 30");
    fakeBinary("opencode", "echo broken >&2; exit 3");
    const started = Date.now();
    const [hung, failed] = await Promise.all([
      detectProvider(getProvider("aider")!, { path: bin, timeoutMs: 300 }),
      detectProvider(getProvider("opencode")!, { path: bin }),
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const d of [hung, failed]) {
      expect(d.installed).toBe(true);
      expect(d.version).toBeUndefined();
    }
  });

  test("generic needs nothing installed", async () => {
    expect(await detectProvider(getProvider("generic")!, { path: bin })).toEqual({
      name: "generic",
      installed: true,
      install: getProvider("generic")!.install,
    });
  });

  test("detectProviders covers every provider, concurrently", async () => {
    for (const p of PROVIDERS) if (p.binary) fakeBinary(p.binary, `sleep 0.5; echo '${p.binary} 1.2.3'`, slowBin);
    const started = Date.now();
    const all = await detectProviders({ path: slowBin, timeoutMs: 4_000 });
    expect(Date.now() - started).toBeLessThan(2_000); // ten half-second lookups, side by side
    expect(all.map((d) => d.name)).toEqual(PROVIDERS.map((p) => p.name));
    // a CLI with no version flag (codex-acp) is not asked: its version comes from its npm package only
    for (const d of all) expect(d).toMatchObject(getProvider(d.name)!.versionArgs.length === 0 ? { installed: true } : { installed: true, version: "1.2.3" });
    expect(all.find((d) => d.name === "codex-acp")?.version).toBeUndefined();
  });
});

describe("parseVersion", () => {
  test("the shapes real CLIs print", () => {
    expect(parseVersion("codex-cli 0.169.0\n")).toBe("0.169.0");
    expect(parseVersion("0.61.0")).toBe("0.61.0");
    expect(parseVersion("2.1.197 (Claude Code)")).toBe("2.1.197");
    expect(parseVersion("aider 0.86.2.dev3")).toBe("0.86.2");
    expect(parseVersion("opencode 1.0.0-beta.3")).toBe("1.0.0-beta.3");
    expect(parseVersion("\n\nweird")).toBe("weird");
    expect(parseVersion("")).toBeUndefined();
  });
});

describe("packageVersion", () => {
  test("an npm-installed CLI's version comes from its package, without starting it", () => {
    const dir = mkdtempSync(join(tmpdir(), "troupe-pkgver-"));
    try {
      const pkg = join(dir, "node_modules", "@scope", "cli");
      mkdirSync(join(pkg, "dist"), { recursive: true });
      writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "@scope/cli", version: "4.5.6" }));
      // a binary that would hang if it were run
      writeFileSync(join(pkg, "dist", "cli.js"), "#!/bin/sh\nsleep 30\n", { mode: 0o755 });
      mkdirSync(join(dir, "node_modules", ".bin"));
      symlinkSync("../@scope/cli/dist/cli.js", join(dir, "node_modules", ".bin", "cli"));
      expect(packageVersion(join(dir, "node_modules", ".bin", "cli"), "@scope/cli")).toBe("4.5.6");
      // another package's, or none: the CLI is asked instead
      expect(packageVersion(join(dir, "node_modules", ".bin", "cli"), "@other/cli")).toBeUndefined();
      expect(packageVersion(join(dir, "nope"), "@scope/cli")).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
