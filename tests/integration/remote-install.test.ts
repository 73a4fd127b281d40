/**
 * `troupe remote install NAME` for a host of another platform, over a real OpenSSH server
 * (tests/support/sshd.ts): the host is this machine, its sessions given a PATH whose `uname`
 * says what the test wants (Darwin arm64, FreeBSD), and the troupe that installs is this build
 * hard-linked into a release folder of the test's own, beside which the distribution's platform
 * packages may lie (dist/packages/<id>/bin/troupe after `npm run dist`). The other platform's
 * "binary" is a stand-in script that runs this build, so the link to it works once copied.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BIN, Sandbox } from "../support/sandbox.ts";
import { HAVE_SSHD, Sshd } from "../support/sshd.ts";

let sshd: Sshd;
let local: Sandbox;
let host: Sandbox;
let hostHome: string;
let release: string;
let env: Record<string, string>;

/** This build at `path`: a hard link (the same file: /proc/self/exe names the link), a copy across file systems. */
function placeBinary(path: string): string {
  mkdirSync(dirname(path), { recursive: true });
  try {
    linkSync(BIN, path);
  } catch {
    copyFileSync(BIN, path);
    chmodSync(path, 0o755);
  }
  return path;
}

/** This machine's platform package, as the npm launcher installs it. */
const HERE = `${process.platform}-${process.arch}`;

/** What the host's `uname -s` and `uname -m` say from now on. */
function hostIs(os: string, cpu: string): void {
  writeFileSync(join(hostHome, "uname-s"), `${os}\n`);
  writeFileSync(join(hostHome, "uname-m"), `${cpu}\n`);
}

/** `troupe ARGS` run from the release folder, as the person on the laptop runs it. */
async function troupe(args: string[], bin = join(release, "troupe")): Promise<{ code: number; stdout: string; stderr: string }> {
  const p = Bun.spawn([bin, ...args], { cwd: local.dir, env: { ...local.env, ...env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

const installed = () => join(hostHome, ".local", "bin", "troupe");
// a launcher build (dist/troupe-deno without deno compile) has no one file to copy: remote-sshd.test.ts covers its refusal
const ONE_FILE = existsSync(BIN) && statSync(BIN).size > 1_000_000;

describe.skipIf(!HAVE_SSHD || !ONE_FILE)("remote install for a host of another platform", () => {
  beforeAll(async () => {
    local = new Sandbox();
    host = new Sandbox();
    hostHome = join(host.runtime, "home");
    const shims = join(host.runtime, "shims");
    mkdirSync(hostHome);
    mkdirSync(shims);
    writeFileSync(join(shims, "uname"), `#!/bin/sh\ncase "$1" in\n  -s) cat "$HOME/uname-s" ;;\n  -m) cat "$HOME/uname-m" ;;\n  *) exec /usr/bin/uname "$@" ;;\nesac\n`, { mode: 0o755 });
    hostIs("Linux", "x86_64");
    sshd = await Sshd.start({ HOME: hostHome, PATH: `${shims}:/usr/local/bin:/usr/bin:/bin`, TROUPE_SOCKET: host.socket, XDG_STATE_HOME: host.env.XDG_STATE_HOME!, XDG_CONFIG_HOME: host.env.XDG_CONFIG_HOME!, NO_COLOR: "1" });
    expect(sshd.exec("uname -s").stdout).toBe("Linux\n");
    release = mkdtempSync(join(dirname(BIN), ".release-test-"));
    placeBinary(join(release, "troupe"));
    env = { TROUPE_SSH_COMMAND: sshd.sshCommand, TROUPE_REMOTE_TIMEOUT: "20" };
    // no --troupe: the host has none on its PATH, so the link runs ~/.local/bin/troupe
    const add = await troupe(["remote", "add", "mac", `127.0.0.1:${sshd.port}`, "--path", host.dir]);
    expect(add).toMatchObject({ code: 0, stderr: "" });
  });

  afterAll(async () => {
    await local?.close();
    await host?.close();
    sshd?.close();
    if (release) rmSync(release, { recursive: true, force: true });
  });

  test("no package for the host's platform: one line naming the platform and the package missing, nothing copied", async () => {
    hostIs("Darwin", "arm64");
    const r = await troupe(["remote", "install", "mac"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`troupe: mac is darwin-arm64; this troupe is ${HERE} and no @troupe/darwin-arm64 binary is here (looked in ${release}/packages): 'npm run dist' builds every platform's, or install troupe there with npm i -g troupe\n`);
    expect(existsSync(installed())).toBe(false);
  }, 60_000);

  test("a platform troupe ships nothing for: one line", async () => {
    hostIs("FreeBSD", "amd64");
    const r = await troupe(["remote", "install", "mac"]);
    expect(r).toMatchObject({ code: 1, stdout: "", stderr: "troupe: mac is FreeBSD amd64: troupe ships no binary for it\n" });
    expect(existsSync(installed())).toBe(false);
  }, 60_000);

  // a build's dist/troupe with `npm run dist`'s dist/packages/<id>/bin/troupe beside it, and an npm
  // install's node_modules/@troupe/<this platform>/bin/troupe with the other platform's package in the same scope
  test.each([
    ["dist/packages beside a build", "troupe", "packages"],
    ["the npm scope folder of an installed troupe", `node_modules/@troupe/${HERE}/bin/troupe`, "node_modules/@troupe"],
  ])("the platform's package (%s) is what is copied, and the remote answers through it", async (_, binAt, packagesAt) => {
    hostIs("Darwin", "arm64");
    const bin = join(release, binAt);
    if (!existsSync(bin)) placeBinary(bin);
    const pkg = join(release, packagesAt, "darwin-arm64", "bin");
    mkdirSync(pkg, { recursive: true });
    const standIn = `#!/bin/sh\n# troupe for darwin-arm64 (a test's stand-in: runs this build)\nexec ${BIN} "$@"\n`;
    writeFileSync(join(pkg, "troupe"), standIn, { mode: 0o755 });
    rmSync(installed(), { force: true });
    try {
      const r = await troupe(["remote", "install", "mac"], bin);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^copying troupe \S+ for darwin-arm64 \(0 MB\) to mac:~\/.local\/bin\/troupe \.\.\.\n/);
      expect(r.stdout).toContain(`mac (127.0.0.1:${sshd.port}:${host.dir}) answers: troupe `);
      expect(readFileSync(installed(), "utf8")).toBe(standIn);
      expect(statSync(installed()).mode & 0o777).toBe(0o755);
    } finally {
      rmSync(join(release, packagesAt, "darwin-arm64"), { recursive: true, force: true });
    }
  }, 60_000);
});
