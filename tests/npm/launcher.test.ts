/**
 * The npm package's launcher (npm/troupe/bin/troupe.js) under Node, as npm installs it: in
 * node_modules/troupe/bin/, the platform package beside it, here with a shell script standing in
 * for the binary. Finding the binary, arguments, exit codes, signals, and the one-line errors.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, closeSync, cpSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PLATFORMS } from "../../src/platforms.ts";
import { isProcessAlive } from "../../src/process-info.ts";
import { waitFor } from "../support/sandbox.ts";

const LAUNCHER = resolve(import.meta.dir, "../../npm/troupe/bin/troupe.js");
interface Launcher {
  candidates(platform: string, arch: string): string[];
  findBinary(platform: string, arch: string, paths?: string[]): { binary?: string; error?: string };
  SCOPE: string;
}
const launcher = createRequire(import.meta.url)(LAUNCHER) as Launcher;
const HOST = `${process.platform}-${process.arch}`;

let dir: string;
let installed: string;
/** A platform package of this machine whose binary is `script` (sh). */
function fakeBinary(script: string): void {
  writeFileSync(join(dir, "node_modules/@troupe", HOST, "bin/troupe"), `#!/bin/sh\n${script}\n`);
}
function node(args: string[], opts: { detached?: boolean } = {}) {
  return Bun.spawn(["node", installed, ...args], { stdout: "pipe", stderr: "pipe", ...opts });
}
async function finish(p: ReturnType<typeof node>) {
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code, signal: p.signalCode };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "troupe-launcher-"));
  mkdirSync(join(dir, "node_modules/troupe/bin"), { recursive: true });
  installed = join(dir, "node_modules/troupe/bin/troupe.js");
  cpSync(LAUNCHER, installed);
  const pkg = join(dir, "node_modules/@troupe", HOST);
  mkdirSync(join(pkg, "bin"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: `@troupe/${HOST}`, version: "0.0.0" }));
  fakeBinary("exit 0");
  chmodSync(join(pkg, "bin/troupe"), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("finding the binary", () => {
  test("looks for the packages scripts/dist.ts makes, under the project's scope, glibc first on Linux", () => {
    expect(launcher.SCOPE).toBe("@troupe");
    for (const p of PLATFORMS) expect(launcher.candidates(p.os, p.cpu)).toContain(p.id);
    expect(launcher.candidates("linux", "arm64")).toEqual(["linux-arm64", "linux-arm64-musl"]);
    expect(launcher.candidates("darwin", "arm64")).toEqual(["darwin-arm64"]);
  });

  test("takes the installed platform package, and says what to do when npm left it out", () => {
    const paths = [join(dir, "node_modules/troupe")];
    expect(launcher.findBinary(process.platform, process.arch, paths).binary).toBe(join(dir, "node_modules/@troupe", HOST, "bin/troupe"));
    const other = process.arch === "x64" ? "arm64" : "x64";
    expect(launcher.findBinary(process.platform, other, paths).error).toContain("--omit=optional");
    expect(launcher.findBinary("win32", "x64", paths).error).toStartWith("troupe has no prebuilt binary for win32-x64");
  });
});

describe.if(process.platform === "linux" || process.platform === "darwin")("running it", () => {
  test("passes arguments, standard streams and the exit code through", async () => {
    fakeBinary('for a in "$@"; do echo "[$a]"; done; echo err >&2; exit 7');
    const r = await finish(node(["spawn", "a b", "--json", ""]));
    expect(r).toMatchObject({ stdout: "[spawn]\n[a b]\n[--json]\n[]\n", stderr: "err\n", code: 7 });
  });

  test("dies of the signal the binary died of", async () => {
    fakeBinary("kill -TERM $$");
    const r = await finish(node([]));
    expect(r.signal).toBe("SIGTERM");
  });

  test("a SIGTERM to the launcher reaches the binary; ctrl+c (SIGINT to the group) is the binary's to handle", async () => {
    fakeBinary('trap \'echo "got TERM"; exit 3\' TERM; trap \'echo "got INT"; exit 4\' INT; echo ready; while :; do sleep 0.05; done');
    const groups: number[] = [];
    try {
      const term = node([], { detached: true });
      groups.push(term.pid);
      const out = term.stdout.getReader();
      const first = await out.read();
      expect(new TextDecoder().decode(first.value)).toBe("ready\n");
      term.kill("SIGTERM");
      expect(await term.exited).toBe(3);
      expect(new TextDecoder().decode((await out.read()).value)).toBe("got TERM\n");

      // the whole process group, as a terminal sends it: the launcher waits, the binary decides
      const int = node([], { detached: true });
      groups.push(int.pid);
      const reader = int.stdout.getReader();
      await reader.read();
      process.kill(-int.pid, "SIGINT");
      expect(await int.exited).toBe(4);
      expect(new TextDecoder().decode((await reader.read()).value)).toBe("got INT\n");
    } finally {
      // a launcher that failed to pass the signal on leaves its binary looping: the group goes
      for (const pgid of groups) {
        try {
          process.kill(-pgid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }
  });

  test("a binary that cannot run is one line, exit 1", async () => {
    const bin = join(dir, "node_modules/@troupe", HOST, "bin/troupe");
    chmodSync(bin, 0o644);
    try {
      const r = await finish(node([]));
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`troupe: cannot run ${bin}: spawn ${bin} EACCES\n`);
    } finally {
      chmodSync(bin, 0o755);
    }
  });

  test("a truncated or corrupt binary is one line naming the file and saying to reinstall, exit 1; one that crashes (SIGBUS) says so too", async () => {
    const bin = join(dir, "node_modules/@troupe", HOST, "bin/troupe");
    const reinstall = "reinstall troupe (npm i -g troupe)";
    const real = readFileSync(bin);
    try {
      // the first 2 MB of a real executable (this runtime's own), as a download cut short leaves it
      const fd = openSync(process.execPath, "r");
      const cut = Buffer.alloc(2 * 1024 * 1024);
      readSync(fd, cut, 0, cut.length, 0);
      closeSync(fd);
      if (process.platform === "linux") {
        writeFileSync(bin, cut);
        const r = await finish(node([]));
        expect(r.code).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`^troupe: ${bin} is cut short \\(${cut.length} of at least \\d+ bytes\\): reinstall troupe \\(npm i -g troupe\\)\n$`));
      }
      // not an executable at all (spawn would hand it to /bin/sh): the same line, never sh's nonsense
      writeFileSync(bin, Buffer.from("<html>503 Service Unavailable</html>\n|;("));
      const corrupt = await finish(node([]));
      expect(corrupt.code).toBe(1);
      expect(corrupt.stderr).toBe(`troupe: ${bin} is not an executable (40 bytes, corrupt or not troupe's binary): ${reinstall}\n`);
      // one whose damage shows only as it runs: it dies of SIGBUS, and the launcher says what to do
      writeFileSync(bin, "#!/bin/sh\nkill -BUS $$\n");
      const crashed = await finish(node([]));
      expect(crashed.signal).toBe("SIGBUS");
      expect(crashed.stderr).toBe(`troupe: ${bin} crashed (SIGBUS); a truncated or corrupt binary does this: ${reinstall}\n`);
    } finally {
      writeFileSync(bin, real);
    }
  });

  test("no process is left behind when the binary ends", async () => {
    fakeBinary("echo $$");
    const r = await finish(node([]));
    const pid = Number(r.stdout.trim());
    await waitFor("the binary gone", () => !isProcessAlive(pid, null));
  });
});
