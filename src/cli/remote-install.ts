import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { TroupeError } from "../errors.ts";
import { shellQuote, sshArgv } from "../client/link/ssh.ts";
import { probeRemote, remoteAddress } from "../client/remote.ts";
import { PLATFORMS, binaryIn, packageName, platformFor, type Platform } from "../platforms.ts";
import type { Remote } from "../protocol/remote.ts";
import { VERSION, isCompiled } from "../self.ts";
import { stdout } from "./streams.ts";

/** What the host says it is: `uname -s`, `uname -m`, and its C library. */
const PROBE = 'uname -s; uname -m; if ls /lib/ld-musl-* >/dev/null 2>&1; then echo musl; else echo glibc; fi';

/** Written aside and renamed, so a troupe running there never sees half a binary. */
const INSTALL =
  'mkdir -p "$HOME/.local/bin" && t="$HOME/.local/bin/.troupe.$$" && cat > "$t" && chmod 755 "$t" && mv -f "$t" "$HOME/.local/bin/troupe" && "$HOME/.local/bin/troupe" --version';

/** Runs `script` with sh on the host; its stdout, or a one-line error with ssh's (or the script's) last words. */
function onHost(remote: Remote, script: string, input: number | "ignore" = "ignore"): Promise<string> {
  const argv = sshArgv(remote, `sh -c ${shellQuote(script)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: [input, "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr!.on("data", (b: Buffer) => (err += b.toString()));
    child.on("error", (e) => reject(new TroupeError("remote_unreachable", `cannot run ssh: ${e.message}`)));
    child.on("close", (code) => {
      if (code === 0) return resolve(out);
      const last = err.trim().split("\n").at(-1) ?? "";
      reject(new TroupeError(code === 255 ? "remote_unreachable" : "internal", last || `exit ${code}`));
    });
  });
}

function thisLibc(): "glibc" | "musl" {
  try {
    return readdirSync("/lib").some((f) => f.startsWith("ld-musl-")) ? "musl" : "glibc";
  } catch {
    return "glibc";
  }
}

/**
 * Where unpacked platform packages may lie beside this binary: `packages/` beside it (dist/troupe
 * after `npm run dist`), and, when it is itself a platform package's binary
 * (`<scope>/linux-x64/bin/troupe`: an npm install, or dist/packages/linux-x64/bin/troupe), the
 * folder of its siblings.
 */
function packageDirs(bin: string = process.execPath): string[] {
  const dirs = [join(dirname(bin), "packages")];
  const pkg = dirname(dirname(bin));
  if (basename(dirname(bin)) === "bin" && PLATFORMS.some((p) => p.id === basename(pkg))) dirs.push(dirname(pkg));
  return dirs;
}

/** The troupe binary for `platform`: this one when it is that platform, else one from the distribution packages; else why not. */
function binaryFor(platform: Platform): { path: string } | { missing: string } {
  const here = platformFor(process.platform, process.arch, thisLibc());
  if (here?.id === platform.id) {
    if (isCompiled()) return { path: process.execPath };
    return { missing: "this troupe is not one executable (run from source, or a launcher of a bundle): install with a single-executable build (npm run build, then dist/troupe remote install)" };
  }
  const dirs = packageDirs();
  for (const dir of dirs) {
    const found = binaryIn(dir, platform);
    if (found) return { path: found };
  }
  return {
    missing: `this troupe is ${here?.id ?? `${process.platform}-${process.arch}`} and no ${packageName(platform)} binary is here (looked in ${dirs.join(", ")}): 'npm run dist' builds every platform's, or install troupe there with npm i -g troupe`,
  };
}

/** `troupe remote install NAME`: this version of troupe to `~/.local/bin/troupe` on the host, over the same ssh. */
export async function installRemote(name: string, remote: Remote): Promise<number> {
  const [os = "", cpu = "", libc = "glibc"] = (await onHost(remote, PROBE)).trim().split("\n").map((l) => l.trim());
  const platform = platformFor(os, cpu, libc === "musl" ? "musl" : "glibc");
  if (!platform) throw new TroupeError("invalid_state", `${name} is ${os} ${cpu}: troupe ships no binary for it`);
  const bin = binaryFor(platform);
  if ("missing" in bin) throw new TroupeError("invalid_state", `${name} is ${platform.id}; ${bin.missing}`);
  if (!existsSync(bin.path)) throw new TroupeError("invalid_state", `${bin.path} is missing`);
  const mb = (statSync(bin.path).size / 1e6).toFixed(0);
  await stdout.write(`copying troupe ${VERSION} for ${platform.id} (${mb} MB) to ${name}:~/.local/bin/troupe ...\n`);
  const fd = openSync(bin.path, "r");
  let said: string;
  try {
    said = (await onHost(remote, INSTALL, fd)).trim();
  } finally {
    closeSync(fd);
  }
  await stdout.write(`installed: ${said}\n`);
  // the link runs `troupe` from the host's PATH first: say so when that one is not the new one
  const state = await probeRemote(name, remote);
  if (state.error) await stdout.write(`but the link to ${name} still fails: ${state.error}\n${remote.troupe ? "" : `('troupe' on its PATH comes first: add the remote again with --troupe '~/.local/bin/troupe' to use this one)\n`}`);
  else await stdout.write(`${name} (${remoteAddress(remote)}) answers: troupe ${state.version}, API ${state.api}\n`);
  return state.error ? 1 : 0;
}
