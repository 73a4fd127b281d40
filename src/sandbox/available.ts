import { spawnSync } from "node:child_process";
import { which } from "../runtime/process.ts";

/** What sandboxes here: bubblewrap on Linux, Seatbelt's `sandbox-exec` on macOS, with its path. */
export type Availability = { ok: true; tool: "bwrap" | "sandbox-exec"; path: string } | { ok: false; why: string };

const CHECK_MS = 60_000;
let cached: { at: number; path: string; result: Availability } | null = null;

/**
 * Whether this machine can sandbox an agent: on Linux, `bwrap` on PATH, and a trial that makes
 * every namespace the sandbox uses and drops every capability (user namespaces may be off, a
 * container may refuse them); on macOS, `sandbox-exec` and a trial profile. Checked again after a
 * minute, so installing bubblewrap needs no restart.
 */
export function sandboxAvailable(PATH: string = process.env.PATH ?? ""): Availability {
  if (cached && cached.path === PATH && Date.now() - cached.at < CHECK_MS) return cached.result;
  const result = check(PATH);
  cached = { at: Date.now(), path: PATH, result };
  return result;
}

function check(PATH: string): Availability {
  if (process.platform === "darwin") return checkSeatbelt();
  if (process.platform !== "linux") return { ok: false, why: `no sandbox on ${process.platform} (troupe sandboxes with bubblewrap on Linux, Seatbelt on macOS)` };
  const bwrap = which("bwrap", PATH);
  if (!bwrap) return { ok: false, why: "bubblewrap (bwrap) is not installed: apt install bubblewrap" };
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-pid", "--unshare-ipc", "--unshare-net", "--cap-drop", "ALL", "--", "/bin/sh", "-c", ":"];
  const r = spawnSync(bwrap, args, { encoding: "utf8", timeout: 5_000 });
  if (r.error) return { ok: false, why: `bwrap could not run: ${r.error.message}` };
  if (r.status !== 0) return { ok: false, why: `bwrap cannot make a sandbox here: ${(r.stderr || `exit ${r.status}`).trim().split("\n")[0]}` };
  return { ok: true, tool: "bwrap", path: bwrap };
}

const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

function checkSeatbelt(): Availability {
  const r = spawnSync(SANDBOX_EXEC, ["-p", "(version 1)(allow default)", "/usr/bin/true"], { encoding: "utf8", timeout: 5_000 });
  if (r.error) return { ok: false, why: `${SANDBOX_EXEC} could not run: ${r.error.message}` };
  if (r.status !== 0) return { ok: false, why: `sandbox-exec cannot make a sandbox here: ${(r.stderr || `exit ${r.status}`).trim().split("\n")[0]}` };
  return { ok: true, tool: "sandbox-exec", path: SANDBOX_EXEC };
}
