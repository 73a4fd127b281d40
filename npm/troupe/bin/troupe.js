#!/usr/bin/env node
"use strict";
// The `troupe` command of the npm package: runs this platform's prebuilt binary, which npm
// installed from one of the package's optionalDependencies (@troupe/<os>-<cpu>[-musl], each
// with os/cpu/libc set, so npm fetches only the one that fits). No install script: the binary is
// found when troupe runs. Agents never go through here: the binary puts its own folder first on
// their PATH (src/self.ts). Plain CommonJS with Node's built-ins only, for any Node npm runs on.

const { spawn } = require("child_process");
const { dirname, join } = require("path");

const SCOPE = "@troupe";
const BINARY = "bin/troupe";

/** The platform package ids for this OS and CPU: on Linux both C libraries, the glibc one first. */
function candidates(platform, arch) {
  const base = `${platform}-${arch}`;
  return platform === "linux" ? [base, `${base}-musl`] : [base];
}

/** True when this Node runs on musl (Alpine): its report names no glibc. Asked only when both packages are there. */
function isMusl() {
  const header = process.report && process.report.getReport().header;
  return !!header && header.glibcVersionRuntime === undefined;
}

/** The installed platform packages among `ids`, each with the path of its binary. */
function installed(ids, paths) {
  const found = [];
  for (const id of ids) {
    try {
      const pkg = require.resolve(`${SCOPE}/${id}/package.json`, paths ? { paths } : undefined);
      found.push({ id, binary: join(dirname(pkg), BINARY) });
    } catch {
      // not installed: npm skipped it as not this platform's
    }
  }
  return found;
}

/** The binary to run, or a one-line reason there is none. */
function findBinary(platform = process.platform, arch = process.arch, paths) {
  const ids = candidates(platform, arch);
  const found = installed(ids, paths);
  if (found.length === 1) return { binary: found[0].binary };
  if (found.length > 1) {
    // an npm that ignores `libc` installs both Linux packages: take the one of this C library
    const want = isMusl() ? `${ids[0]}-musl` : ids[0];
    return { binary: (found.find((f) => f.id === want) || found[0]).binary };
  }
  const known = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"];
  if (!known.includes(`${platform}-${arch}`)) {
    return { error: `troupe has no prebuilt binary for ${platform}-${arch} (it ships for ${known.join(", ")}, and Linux on musl)` };
  }
  const wanted = ids.length > 1 && isMusl() ? ids[1] : ids[0];
  return {
    error: `the package ${SCOPE}/${wanted} that holds troupe's binary for this machine is not installed; npm skips it when optional dependencies are left out (--omit=optional, --no-optional): install troupe again without that`,
  };
}

const REINSTALL = "reinstall troupe (npm i -g troupe)";

/** Executable formats by their first four bytes: ELF (Linux), Mach-O 64-bit and universal (macOS). A script (`#!`) the kernel runs too. */
const MAGICS = ["7f454c46", "cffaedfe", "feedfacf", "cafebabe"];
const isExecutable = (head, got) => (got >= 4 && MAGICS.includes(head.subarray(0, 4).toString("hex"))) || (got >= 2 && head[0] === 0x23 && head[1] === 0x21);

/**
 * Why the file at `binary` cannot be troupe's binary, or null: not an executable format (a
 * download cut to an HTML page, a corrupt file, which spawn would hand to /bin/sh to make
 * nonsense of), or an ELF file shorter than its own headers say (cut short: it would die of
 * SIGBUS). Reads its first 64 bytes.
 */
function damaged(binary) {
  const fs = require("fs");
  let fd;
  try {
    fd = fs.openSync(binary, "r");
  } catch {
    return null; // spawn says why (missing, no permission)
  }
  try {
    const size = fs.fstatSync(fd).size;
    const head = Buffer.alloc(64);
    const got = fs.readSync(fd, head, 0, 64, 0);
    if (!isExecutable(head, got)) return `${binary} is not an executable (${size} bytes, corrupt or not troupe's binary): ${REINSTALL}`;
    // ELF 64-bit, little-endian: the section header table (e_shoff, e_shentsize × e_shnum) ends inside the file
    if (head[0] === 0x7f && got < 64) return `${binary} is cut short (${size} bytes): ${REINSTALL}`;
    if (head[0] === 0x7f && head[4] === 2 && head[5] === 1) {
      const end = Number(head.readBigUInt64LE(0x28)) + head.readUInt16LE(0x3a) * head.readUInt16LE(0x3c);
      if (end > size) return `${binary} is cut short (${size} of at least ${end} bytes): ${REINSTALL}`;
    }
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Signals a damaged binary dies of, as it maps what is not there or runs what is no code. */
const CRASHES = ["SIGBUS", "SIGSEGV", "SIGILL"];

/** Runs the binary with our arguments, standard streams and environment; exits as it does. */
function run(binary, args) {
  let child = null;
  // A terminal sends ctrl+c and ctrl+\ to the whole foreground group, the binary included: this
  // process ignores them and waits for the binary's own decision. A signal sent to this process
  // alone (kill PID, a supervisor's SIGTERM, a hang-up) is passed on. Set before the spawn, so
  // none comes between the binary's start and here (the child starts with default handlers).
  const ignore = () => {};
  const pass = (signal) => () => child && child.kill(signal);
  const handlers = { SIGINT: ignore, SIGQUIT: ignore, SIGTERM: pass("SIGTERM"), SIGHUP: pass("SIGHUP"), SIGUSR1: pass("SIGUSR1"), SIGUSR2: pass("SIGUSR2") };
  for (const [signal, handler] of Object.entries(handlers)) process.on(signal, handler);
  child = spawn(binary, args, { stdio: "inherit" });
  child.on("error", (err) => {
    process.stderr.write(`troupe: cannot run ${binary}: ${err.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    if (signal) {
      if (CRASHES.includes(signal)) process.stderr.write(`troupe: ${binary} crashed (${signal}); a truncated or corrupt binary does this: ${REINSTALL}\n`);
      // die of the same signal, so whoever waits on us (a shell, a script) sees what happened
      for (const [s, handler] of Object.entries(handlers)) process.removeListener(s, handler);
      // a signal Node does not die of (SIGPIPE) still ends this process, with the shell's code for it
      process.exitCode = 128 + (require("os").constants.signals[signal] || 0);
      process.kill(process.pid, signal);
      return;
    }
    process.exit(code === null ? 1 : code);
  });
}

if (require.main === module) {
  const found = findBinary();
  if (found.error) {
    process.stderr.write(`troupe: ${found.error}\n`);
    process.exit(1);
  }
  const why = damaged(found.binary);
  if (why) {
    process.stderr.write(`troupe: ${why}\n`);
    process.exit(1);
  }
  run(found.binary, process.argv.slice(2));
} else {
  module.exports = { candidates, findBinary, damaged, SCOPE, BINARY };
}
