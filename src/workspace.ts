import { existsSync, mkdirSync, chmodSync, lstatSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { homedir, tmpdir } from "node:os";
import { TroupeError } from "./errors.ts";
import { isProcessAlive } from "./process-info.ts";
import { readLockFile } from "./lock-file.ts";
import { sha256Hex } from "./runtime/hash.ts";
import { readGuarded, writeGuarded } from "./guarded-fs.ts";
import { program } from "./runtime/program.ts";

/** Where one workspace keeps its state and where its daemon listens. */
export interface Workspace {
  root: string;
  /** `<root>/.troupe`: store, logs, daemon log, lock. */
  stateDir: string;
  socket: string;
  /** TROUPE_SOCKET named it: a daemon elsewhere is an error, not a socket to follow. */
  socketExplicit: boolean;
  /**
   * The current folder, in no git repository, that nobody named (`--workspace`, TROUPE_WORKSPACE)
   * and that has no `.troupe/` yet: not a workspace, so no daemon is started and nothing is made there.
   */
  unclaimed?: true;
}

/**
 * The git toplevel above `dir` (walking up for `.git`, no git process), else null. A `.git` is a
 * repository's as git itself takes one: a file (a worktree's pointer to its git dir) or a folder
 * with a HEAD. An empty `.git` folder is none: Codex's sandbox makes `.git`, `.codex` and `.agents`
 * in the folders it lets a command write, as mount points, and leaves them (seen in `/tmp` after
 * Codex 0.171 and codex-acp 0.16 ran there), which made `/tmp` the workspace of every folder below.
 */
function gitToplevel(dir: string): string | null {
  let cur = resolve(dir);
  for (;;) {
    if (isGitDir(join(cur, ".git"))) return cur;
    const parent = dirname(cur);
    if (parent === cur) return null;
    cur = parent;
  }
}

function isGitDir(path: string): boolean {
  try {
    const st = statSync(path);
    return st.isFile() || (st.isDirectory() && existsSync(join(path, "HEAD")));
  } catch {
    return false;
  }
}

/** Why `dir` cannot hold this user's sockets, or null when it is (now) a 0700 folder of theirs. */
function claimRuntimeDir(dir: string): string | null {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") return (err as Error).message;
  }
  // lstat: a symlink planted by someone else must not be followed
  const st = lstatSync(dir);
  if (!st.isDirectory()) return `${dir} is not a folder`;
  const uid = program.uid();
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to uid ${st.uid}, not to you (uid ${uid})`;
  // mkdir honours umask and leaves an existing folder alone: enforce 0700 either way.
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
  return null;
}

let warned = false;

/**
 * A short per-user folder for sockets (a Unix socket path must stay under ~107 bytes):
 * `$XDG_RUNTIME_DIR/troupe`, else `/tmp/troupe-<uid>`. A folder another user created first
 * there (it could watch or replace our sockets) is refused with a warning, and
 * `~/.troupe-run` serves instead.
 */
export function runtimeDir(): string {
  const uid = program.uid() ?? "user";
  const xdg = program.env("XDG_RUNTIME_DIR");
  const preferred = xdg && existsSync(xdg) ? join(xdg, "troupe") : join(tmpdir(), `troupe-${uid}`);
  const refused = claimRuntimeDir(preferred);
  if (refused === null) return preferred;
  const fallback = join(homedir(), ".troupe-run");
  const alsoRefused = claimRuntimeDir(fallback);
  if (alsoRefused !== null) throw new TroupeError("internal", `no safe folder for troupe's sockets: ${refused}; ${alsoRefused}; set TROUPE_SOCKET`);
  if (!warned) process.stderr.write(`troupe: not using ${preferred} for sockets (${refused}); using ${fallback}\n`);
  warned = true;
  return fallback;
}

/** Why a daemon cannot be started for `ws`: it is no workspace (see `Workspace.unclaimed`). */
export function notAWorkspace(ws: Workspace): TroupeError {
  return new TroupeError("not_a_workspace", `${ws.root} is in no git repository: run troupe inside one, or name a workspace with --workspace DIR`);
}

/**
 * The agents' socket of the daemon on `socket`, in a folder of its own beside it (`<hash>.agents/`):
 * a sandbox binds that folder in, never the person's socket, and a folder (not the socket file)
 * so that a restarted daemon's new socket is seen inside. No token, no answer there.
 */
export function agentSocketFor(socket: string): string {
  return join(socket.endsWith(".sock") ? `${socket.slice(0, -5)}.agents` : `${socket}.agents`, "agent.sock");
}

/**
 * The folder of one agent's network proxy socket (network `allow`, src/sandbox/net-proxy.ts):
 * beside the workspace's sockets, one per agent, so each sandbox sees its own proxy only.
 */
export function netDirFor(socket: string, agentId: string): string {
  return join(socket.endsWith(".sock") ? `${socket.slice(0, -5)}.net` : `${socket}.net`, agentId);
}

/** On macOS (Seatbelt has no tmpfs): one agent's private temp folder, beside the workspace's sockets. */
export function tmpDirFor(socket: string, agentId: string): string {
  return join(socket.endsWith(".sock") ? `${socket.slice(0, -5)}.tmp` : `${socket}.tmp`, agentId);
}

function socketPathFor(root: string): string {
  const hash = sha256Hex(root).slice(0, 16);
  return join(runtimeDir(), `${hash}.sock`);
}

/**
 * The workspace and its daemon's socket: TROUPE_SOCKET, else the socket the running daemon
 * wrote in its lock file (it may have been started with another TROUPE_SOCKET), else the
 * default path for this workspace. `ignoreEnvSocket`: one of several workspaces followed at once.
 */
export function resolveWorkspace(opts: { workspace?: string; cwd?: string; ignoreEnvSocket?: boolean } = {}): Workspace {
  const explicit = opts.workspace ?? program.env("TROUPE_WORKSPACE");
  const found = explicit ? null : gitToplevel(opts.cwd ?? program.cwd());
  const root = explicit ? resolve(explicit) : (found ?? resolve(opts.cwd ?? program.cwd()));
  const stateDir = join(root, ".troupe");
  const claim = !explicit && found === null && !existsSync(stateDir) ? { unclaimed: true as const } : {};
  // one of several workspaces followed at once: TROUPE_SOCKET cannot name all their sockets
  const envSocket = opts.ignoreEnvSocket ? undefined : program.env("TROUPE_SOCKET");
  if (envSocket) return { root, stateDir, socket: envSocket, socketExplicit: true, ...claim };
  const held = readLockFile(stateDir);
  const socket = held && isProcessAlive(held.pid, null) ? held.socket : socketPathFor(root);
  return { root, stateDir, socket, socketExplicit: false, ...claim };
}

/**
 * troupe's rule in `.git/info/exclude`: its state stays out of git, while the files a team shares
 * through the repository (profiles, the workspace config) can be committed. `.troupe/*` rather than
 * `.troupe/`: git never looks inside an excluded folder, so nothing in it could be re-included.
 */
const EXCLUDE_RULE = [".troupe/*", "!.troupe/profiles/", "!.troupe/config.json"];
/** Lines an older troupe (or a person) wrote that exclude the whole folder: replaced by the rule. */
const WHOLE_FOLDER = new Set([".troupe/", "/.troupe/", ".troupe", "/.troupe"]);

/** A list of patterns; a bigger file is left as it is. */
const EXCLUDE_MAX_BYTES = 1024 * 1024;

/** Writes troupe's rule into `.git/info/exclude` (never the user's .gitignore), replacing the old whole-folder line. */
export function excludeStateDir(root: string): void {
  const gitDir = join(root, ".git");
  if (!existsSync(gitDir) || !statSync(gitDir).isDirectory()) return;
  const exclude = join(gitDir, "info", "exclude");
  // an agent working in the workspace can reach .git: a FIFO, a device or a link there is left alone
  const read = readGuarded(exclude, { maxBytes: EXCLUDE_MAX_BYTES, root: gitDir });
  if (read.kind === "refused") return;
  const current = read.kind === "ok" ? read.text : "";
  const lines = current.split("\n");
  const trimmed = lines.map((l) => l.trim());
  if (EXCLUDE_RULE.every((r) => trimmed.includes(r)) && !trimmed.some((l) => WHOLE_FOLDER.has(l))) return;
  const kept = lines.filter((l) => !WHOLE_FOLDER.has(l.trim()) && !EXCLUDE_RULE.includes(l.trim()));
  while (kept.length && kept.at(-1) === "") kept.pop();
  try {
    writeGuarded(exclude, `${[...kept, ...EXCLUDE_RULE].join("\n")}\n`, gitDir, 0o644);
  } catch {
    // a link planted on the way: troupe's files then show in `git status`, nothing worse
  }
}
