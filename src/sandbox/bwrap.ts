import type { NetworkPolicy } from "../protocol/sandbox.ts";

/** What one agent's sandbox holds, as paths that exist (src/sandbox/plan.ts gathers them). */
export interface SandboxPlan {
  cwd: string;
  /** An empty tmpfs in its place, then what it needs bound back (the login folders among `writable`). */
  home: string;
  network: NetworkPolicy;
  /** Seen again read-only under an emptied folder: the repository, troupe's binary, PATH folders, git's config, allowRead, the agents' socket folder. */
  readOnly: string[];
  /** Emptied: troupe's state, runtime and config folders, the workspace's `.troupe/`. */
  hidden: string[];
  /** Writable: the worktree (the workspace for an agent without one), the git folder, login folders, allowWrite. */
  writable: string[];
  /** Read-only again inside a writable folder: git's config and hooks, which the person's own git runs. */
  readOnlyAgain: string[];
  setenv: Record<string, string>;
  unsetenv: string[];
}

type Op = "ro" | "hide" | "rw" | "ro-again";
/** Applied in this order at one path, so a later one wins: a writable worktree under a hidden `.troupe/`. */
const OP_ORDER: Record<Op, number> = { ro: 0, hide: 1, rw: 2, "ro-again": 3 };
const FLAGS: Record<Op, (p: string) => string[]> = {
  ro: (p) => ["--ro-bind", p, p],
  hide: (p) => ["--tmpfs", p],
  rw: (p) => ["--bind", p, p],
  "ro-again": (p) => ["--ro-bind", p, p],
};

const depth = (p: string) => p.split("/").filter(Boolean).length;

/**
 * bubblewrap's arguments for the plan, before `--` and the agent's argv. The system is read-only,
 * `/tmp` and HOME are empty tmpfs, `/proc` is the agent's own PID namespace (it sees and signals
 * only its processes), every capability is dropped (as root, bwrap keeps them: `umount` would undo
 * a tmpfs). It stays in its launcher's process group (no `--new-session`), so a stop of the group
 * (the ACP runner's, the stopper's) reaches it; it has no terminal to inject into. Mounts go shallow to
 * deep, so a folder bound inside a hidden one is seen and a hidden one inside a writable one is not.
 */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const ops: { path: string; op: Op }[] = [
    ...plan.readOnly.map((path) => ({ path, op: "ro" as const })),
    ...plan.hidden.map((path) => ({ path, op: "hide" as const })),
    ...plan.writable.map((path) => ({ path, op: "rw" as const })),
    ...plan.readOnlyAgain.map((path) => ({ path, op: "ro-again" as const })),
  ];
  const seen = new Set<string>();
  const mounts = ops
    .filter((o) => (seen.has(`${o.op} ${o.path}`) ? false : (seen.add(`${o.op} ${o.path}`), true)))
    .sort((a, b) => depth(a.path) - depth(b.path) || OP_ORDER[a.op] - OP_ORDER[b.op])
    .flatMap((o) => FLAGS[o.op](o.path));
  const base = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  const home = plan.home !== "/" && plan.home !== "/tmp" ? ["--tmpfs", plan.home] : [];
  const unshare = ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", ...(plan.network === "all" ? [] : ["--unshare-net"])];
  const env = [...Object.entries(plan.setenv).flatMap(([k, v]) => ["--setenv", k, v]), ...plan.unsetenv.flatMap((k) => ["--unsetenv", k])];
  return [...base, ...home, ...mounts, ...unshare, "--cap-drop", "ALL", "--chdir", plan.cwd, ...env];
}
