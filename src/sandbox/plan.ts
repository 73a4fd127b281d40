import { existsSync, mkdirSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, sep } from "node:path";
import { TroupeError } from "../errors.ts";
import type { Provider } from "../../providers/types.ts";
import { which } from "../runtime/process.ts";
import { agentSocketFor } from "../workspace.ts";
import type { SandboxPlan } from "./bwrap.ts";
import type { SandboxSettings } from "./policy.ts";

/**
 * Variables of the spawning environment a sandboxed agent does not get unless `allowEnv` names
 * them: a forwarded ssh agent, GitHub's and the clouds' tokens, the person's desktop bus.
 */
const DROPPED_ENV = [
  "SSH_AUTH_SOCK", "SSH_AGENT_PID", "GPG_AGENT_INFO", "DBUS_SESSION_BUS_ADDRESS",
  "GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN", "GITHUB_ENTERPRISE_TOKEN",
  "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "AZURE_CLIENT_SECRET",
  "NPM_TOKEN", "NODE_AUTH_TOKEN", "DOCKER_AUTH_CONFIG",
];

export interface PlanInput {
  root: string;
  stateDir: string;
  /** The person's socket of the workspace's daemon: its folder is hidden, the agents' one bound in. */
  socket: string;
  cwd: string;
  worktree: string | null;
  /** `.troupe/agents/<name>`: an agent without a worktree keeps its input and signal files there. */
  agentDir: string;
  /** An agent's worker: without a worktree, it gets the person's checkout read-only (its parent could not write it either). */
  worker: boolean;
  /** Plan mode: troupe's sandbox is what keeps it from writing: its worktree and the git folder are read-only. */
  readOnlyWork: boolean;
  /** The session's environment, as the agent would get it unsandboxed. */
  env: Record<string, string>;
  provider: Provider;
  argv0: string;
  binDir: string;
  /** The argv that runs this troupe (the binary; or a runtime and its script): what the agent's `troupe` runs. */
  self: string[];
  settings: Pick<SandboxSettings, "network" | "allowRead" | "allowWrite" | "allowEnv">;
  /** Network `allow`: the folder of the proxy's socket (src/sandbox/net-proxy.ts), made and bound in read-only. */
  netDir?: string;
  /** Seatbelt (macOS), which has no tmpfs: a private folder of its own, its TMPDIR, in place of an empty `/tmp`. */
  tmpDir?: string;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

const under = (path: string, dir: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/** A path of the config: absolute, or `~/...` under HOME; null (and why, in `missing`) when it does not exist. */
function expand(path: string, home: string, key: string, missing: string[]): string | null {
  const p = path === "~" ? home : path.startsWith("~/") ? join(home, path.slice(2)) : path;
  if (!isAbsolute(p)) throw new TroupeError("bad_request", `sandbox.${key}: ${path} is not an absolute path (nor ~/...)`);
  if (existsSync(p)) return real(p);
  missing.push(`sandbox.${key}: ${path} does not exist`);
  return null;
}

const present = (paths: (string | null)[]): string[] => paths.filter((p): p is string => p !== null);

/**
 * What a program needs seen: up to its outermost `node_modules` (an npm CLI needs its package's
 * neighbours); a script's folder (a bundle's chunks lie beside its entry: troupe on Deno); else the file alone.
 */
function programPath(bin: string): string {
  const path = real(bin);
  const at = path.indexOf(`${sep}node_modules${sep}`);
  if (at >= 0) return path.slice(0, at + `${sep}node_modules`.length);
  return /\.[cm]?js$/.test(path) ? dirname(path) : path;
}

const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() === true;

/**
 * What one agent's sandbox holds, from where its workspace, worktree, CLI and login live. HOME
 * and /tmp are emptied; the repository, troupe's binary and the folders of PATH under them stay
 * readable; its worktree (the person's agents without one: the workspace), the git folder and its CLI's login are
 * writable; troupe's state, config and runtime folders are hidden, the agents' socket folder
 * (and network `allow`'s proxy socket folder) bound back in read-only. A path of `allowRead` or
 * `allowWrite` that does not exist is left out, and said in `missing` (a strict sandbox refuses then).
 */
export function sandboxPlan(i: PlanInput): SandboxPlan & { missing: string[] } {
  // a HOME that does not exist has nothing to hide (and bwrap could not mount over it)
  const given = real(i.env.HOME || homedir());
  const home = existsSync(given) ? given : "/";
  const emptied = home === "/" ? ["/tmp"] : [home, "/tmp"];
  // under an emptied folder, and not that folder itself (which would undo the emptying)
  const hiddenNow = (p: string) => emptied.some((d) => under(p, d) && p !== d);
  const readOnly: string[] = [real(i.root), real(i.binDir)];
  // the programs it runs: PATH's folders that the emptied HOME and /tmp would take away, and its CLI's own
  for (const dir of (i.env.PATH ?? "").split(delimiter)) if (dir && isAbsolute(dir) && existsSync(dir) && hiddenNow(real(dir))) readOnly.push(real(dir));
  const bin = i.argv0.includes("/") ? i.argv0 : which(i.argv0, i.env.PATH ?? "");
  // troupe itself, as its `troupe` runs it: the binary, or a launcher and what it runs (this runtime and its bundle)
  const selfFiles = [...i.self, process.execPath, process.argv[1] ?? ""].filter((a) => isAbsolute(a) && existsSync(a));
  for (const p of [bin, ...selfFiles]) if (p && hiddenNow(real(p))) readOnly.push(programPath(p));
  if (home !== "/") for (const f of [".gitconfig", ".config/git"]) if (existsSync(join(home, f))) readOnly.push(join(home, f));
  const missing: string[] = [];
  readOnly.push(...present(i.settings.allowRead.map((p) => expand(p, home, "allowRead", missing))));

  const socketDir = dirname(agentSocketFor(i.socket));
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  const hidden = [real(i.stateDir), real(dirname(i.socket))];
  const xdg = (v: string, fallback: string) => join(i.env[v] || join(home, fallback), "troupe");
  for (const d of [xdg("XDG_CONFIG_HOME", ".config"), xdg("XDG_STATE_HOME", ".local/state")]) if (existsSync(d)) hidden.push(real(d));

  // read-only: connecting needs no write, and an agent must not remove the socket its siblings use
  readOnly.push(real(socketDir));
  if (i.netDir) {
    mkdirSync(i.netDir, { recursive: true, mode: 0o700 });
    readOnly.push(real(i.netDir));
  }
  const writable: string[] = [];
  if (i.readOnlyWork) readOnly.push(real(i.worktree ?? i.root));
  else if (i.worktree) writable.push(real(i.worktree));
  else if (!i.worker) writable.push(real(i.root));
  if (!i.worktree) {
    mkdirSync(i.agentDir, { recursive: true, mode: 0o700 });
    // a plan agent's too: it reads its input there; the daemon, not the agent, writes its signal
    (i.readOnlyWork ? readOnly : writable).push(real(i.agentDir));
  }
  const gitDir = join(i.root, ".git");
  const readOnlyAgain: string[] = [];
  if (isDir(gitDir) && !i.readOnlyWork) {
    writable.push(real(gitDir));
    for (const f of ["config", "hooks"]) if (existsSync(join(gitDir, f))) readOnlyAgain.push(real(join(gitDir, f)));
  }
  const acct = i.provider.accountEnv ? i.env[i.provider.accountEnv] : undefined;
  if (acct && isAbsolute(acct) && isDir(acct)) writable.push(real(acct));
  else for (const f of home === "/" ? [] : (i.provider.home ?? [])) {
    const path = join(home, f);
    if (f.endsWith("/")) mkdirSync(path, { recursive: true, mode: 0o700 });
    if (existsSync(path)) writable.push(real(path));
  }
  writable.push(...present(i.settings.allowWrite.map((p) => expand(p, home, "allowWrite", missing))));
  if (i.tmpDir) {
    mkdirSync(i.tmpDir, { recursive: true, mode: 0o700 });
    writable.push(real(i.tmpDir));
  }

  const kept = new Set(i.settings.allowEnv);
  return {
    cwd: real(i.cwd),
    home,
    network: i.settings.network,
    readOnly,
    hidden,
    writable,
    readOnlyAgain,
    setenv: { TROUPE_SOCKET: agentSocketFor(i.socket), TROUPE_SANDBOX: i.settings.network, TMPDIR: i.tmpDir ? real(i.tmpDir) : "/tmp" },
    unsetenv: DROPPED_ENV.filter((k) => !kept.has(k) && i.env[k] !== undefined),
    missing,
  };
}
