import { describe, expect, test } from "bun:test";
import { bwrapArgs, type SandboxPlan } from "../../src/sandbox/bwrap.ts";

const plan: SandboxPlan = {
  cwd: "/w/.troupe/worktrees/a",
  home: "/home/u",
  network: "none",
  readOnly: ["/w", "/home/u/.local/bin"],
  hidden: ["/w/.troupe", "/run/troupe"],
  writable: ["/w/.troupe/worktrees/a", "/w/.git", "/run/troupe/x.agents", "/home/u/.claude"],
  readOnlyAgain: ["/w/.git/config", "/w/.git/hooks"],
  setenv: { TROUPE_SOCKET: "/run/troupe/x.agents/agent.sock" },
  unsetenv: ["SSH_AUTH_SOCK"],
};

/** The mount flags as `op path` pairs, in order. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--tmpfs" || a === "--dev" || a === "--proc") out.push(`${a} ${args[++i]}`);
    else if (a === "--ro-bind" || a === "--bind") out.push(`${a} ${args[(i += 2)]}`);
  }
  return out;
}

describe("bubblewrap's arguments", () => {
  test("the system read-only, HOME and /tmp emptied, then shallow to deep: a worktree inside a hidden .troupe is seen, git's config read-only again", () => {
    expect(mounts(bwrapArgs(plan))).toEqual([
      "--ro-bind /",
      "--dev /dev",
      "--proc /proc",
      "--tmpfs /tmp",
      "--tmpfs /home/u",
      "--ro-bind /w",
      "--tmpfs /w/.troupe",
      "--tmpfs /run/troupe",
      "--bind /w/.git",
      "--bind /run/troupe/x.agents",
      "--bind /home/u/.claude",
      "--ro-bind /w/.git/config",
      "--ro-bind /w/.git/hooks",
      "--ro-bind /home/u/.local/bin",
      "--bind /w/.troupe/worktrees/a",
    ]);
  });

  test("its own PID namespace, no capabilities, no network with none, its launcher's process group, the environment trimmed", () => {
    const args = bwrapArgs(plan);
    for (const f of ["--unshare-pid", "--unshare-ipc", "--unshare-net"]) expect(args).toContain(f);
    // a group stop (the ACP runner's) must reach the CLI inside
    expect(args).not.toContain("--new-session");
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args.join(" ")).toContain("--chdir /w/.troupe/worktrees/a --setenv TROUPE_SOCKET /run/troupe/x.agents/agent.sock --unsetenv SSH_AUTH_SOCK");
    expect(bwrapArgs({ ...plan, network: "all" })).not.toContain("--unshare-net");
    // allow: only the loopback, where its bridge to troupe's proxy listens
    expect(bwrapArgs({ ...plan, network: "allow" })).toContain("--unshare-net");
  });

  test("a workspace without a worktree is writable, and its .troupe still hidden", () => {
    const m = mounts(bwrapArgs({ ...plan, readOnly: [], writable: ["/w"], hidden: ["/w/.troupe"], readOnlyAgain: [] }));
    expect(m.slice(5)).toEqual(["--bind /w", "--tmpfs /w/.troupe"]);
  });
});
