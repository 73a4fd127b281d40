import { createHash } from "node:crypto";
import { existsSync, mkdirSync, chmodSync, statSync, readFileSync, appendFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { tmpdir, userInfo } from "node:os";

/** Where one workspace keeps its state and where its daemon listens. */
export interface Workspace {
  root: string;
  /** `<root>/.troupe`: store, logs, daemon log, lock. */
  stateDir: string;
  socket: string;
}

/** The git toplevel above `dir` (walking up for `.git`, no git process), else `dir` itself. */
export function findWorkspaceRoot(dir: string): string {
  let cur = resolve(dir);
  for (;;) {
    if (existsSync(join(cur, ".git"))) return cur;
    const parent = dirname(cur);
    if (parent === cur) return resolve(dir);
    cur = parent;
  }
}

/** A short per-user folder for sockets: a Unix socket path must stay under ~107 bytes. */
export function runtimeDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : userInfo().username;
  const base = process.env.XDG_RUNTIME_DIR && existsSync(process.env.XDG_RUNTIME_DIR)
    ? join(process.env.XDG_RUNTIME_DIR, "troupe")
    : join(tmpdir(), `troupe-${uid}`);
  mkdirSync(base, { recursive: true, mode: 0o700 });
  // mkdir honours umask and leaves an existing folder alone: enforce 0700 either way.
  if ((statSync(base).mode & 0o777) !== 0o700) chmodSync(base, 0o700);
  return base;
}

export function socketPathFor(root: string): string {
  const hash = createHash("sha256").update(root).digest("hex").slice(0, 16);
  return join(runtimeDir(), `${hash}.sock`);
}

export function resolveWorkspace(opts: { workspace?: string; cwd?: string } = {}): Workspace {
  const explicit = opts.workspace ?? process.env.TROUPE_WORKSPACE;
  const root = explicit ? resolve(explicit) : findWorkspaceRoot(opts.cwd ?? process.cwd());
  return {
    root,
    stateDir: join(root, ".troupe"),
    socket: process.env.TROUPE_SOCKET ?? socketPathFor(root),
  };
}

/** Keep `.troupe/` out of git through `.git/info/exclude`, never the user's .gitignore. */
export function excludeStateDir(root: string): void {
  const gitDir = join(root, ".git");
  if (!existsSync(gitDir) || !statSync(gitDir).isDirectory()) return;
  const infoDir = join(gitDir, "info");
  const exclude = join(infoDir, "exclude");
  mkdirSync(infoDir, { recursive: true });
  const current = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  if (current.split("\n").some((l) => l.trim() === ".troupe/" || l.trim() === "/.troupe/" || l.trim() === ".troupe")) return;
  const sep = current === "" || current.endsWith("\n") ? "" : "\n";
  appendFileSync(exclude, `${sep}.troupe/\n`);
}
