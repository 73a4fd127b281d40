import { describe, expect, test } from "bun:test";
import type { SandboxPlan } from "../../src/sandbox/bwrap.ts";
import { seatbeltArgs, seatbeltProfile } from "../../src/sandbox/seatbelt.ts";

/**
 * The macOS sandbox's profile (Seatbelt), read as text: no machine here runs macOS, so what
 * sandbox-exec makes of it is unverified; what the text allows is checked against the plan.
 */
const plan: SandboxPlan = {
  cwd: "/Users/u/w/.troupe/worktrees/a",
  home: "/Users/u",
  network: "none",
  readOnly: ["/Users/u/w", "/Users/u/.local/bin", "/run/troupe/x.agents"],
  hidden: ["/Users/u/w/.troupe", "/run/troupe"],
  writable: ["/Users/u/w/.troupe/worktrees/a", "/Users/u/w/.git", "/Users/u/.claude", "/run/troupe/x.tmp/ag_1"],
  readOnlyAgain: ["/Users/u/w/.git/config", "/Users/u/w/.git/hooks"],
  setenv: { TROUPE_SOCKET: "/run/troupe/x.agents/agent.sock", TMPDIR: "/run/troupe/x.tmp/ag_1" },
  unsetenv: ["SSH_AUTH_SOCK"],
};
const SOCKET = "/run/troupe/x.agents/agent.sock";
const rules = (p: SandboxPlan) => seatbeltProfile(p, SOCKET).trim().split("\n");

describe("the macOS sandbox's profile", () => {
  test("denies by default; its own processes only", () => {
    const r = rules(plan);
    expect(r.slice(0, 2)).toEqual(["(version 1)", "(deny default)"]);
    expect(r).toContain("(allow signal (target same-sandbox))");
    expect(r).toContain("(allow process-info* (target same-sandbox))");
    // system services by name, never every one
    const lookups = r.filter((l) => l.includes("mach-lookup"));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]).toStartWith("(allow mach-lookup (global-name ");
    expect(lookups[0]).toContain('(global-name "com.apple.trustd.agent")');
    // only allows after the default: their union is the policy, whatever Seatbelt's precedence
    expect(r.slice(2).every((l) => l.startsWith("(allow "))).toBe(true);
  });

  test("reads the system less HOME, /tmp and the hidden folders; then what the plan shows, less the hidden inside it", () => {
    const r = rules(plan);
    expect(r).toContain('(allow file-read* (require-all (subpath "/") (require-not (subpath "/Users/u")) (require-not (subpath "/tmp")) (require-not (subpath "/private/tmp")) (require-not (subpath "/var/folders")) (require-not (subpath "/private/var/folders")) (require-not (subpath "/Users/u/w/.troupe")) (require-not (subpath "/run/troupe"))))');
    // the repository, less its .troupe (the store, other agents' worktrees)
    expect(r).toContain('(allow file-read* (require-all (subpath "/Users/u/w") (require-not (subpath "/Users/u/w/.troupe"))))');
    // its own worktree, inside the hidden .troupe, and its CLI's login, inside HOME
    expect(r).toContain('(allow file-read* (subpath "/Users/u/w/.troupe/worktrees/a"))');
    expect(r).toContain('(allow file-read* (subpath "/Users/u/.claude"))');
    expect(r.filter((l) => l.includes("file-read*") && l.includes('"/Users/u/.ssh"'))).toEqual([]);
  });

  test("writes its worktree, .git less its config and hooks, its login and its private temp folder; nothing else of the person's", () => {
    const writes = rules(plan).filter((l) => l.startsWith("(allow file-write*"));
    expect(writes).toEqual([
      '(allow file-write* (subpath "/Users/u/w/.troupe/worktrees/a"))',
      '(allow file-write* (require-all (subpath "/Users/u/w/.git") (require-not (subpath "/Users/u/w/.git/config")) (require-not (subpath "/Users/u/w/.git/hooks"))))',
      '(allow file-write* (subpath "/Users/u/.claude"))',
      '(allow file-write* (subpath "/run/troupe/x.tmp/ag_1"))',
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
    ]);
  });

  test("network none: only the agents' socket; all: the network", () => {
    expect(rules(plan).filter((l) => l.includes("network"))).toEqual([`(allow network-outbound (remote unix-socket (path-literal "${SOCKET}")))`]);
    expect(rules({ ...plan, network: "all" }).filter((l) => l.includes("network"))).toEqual(["(allow network*)"]);
  });

  test("a quote or backslash in a path stays inside its string", () => {
    const odd = rules({ ...plan, writable: ['/w/a"b\\c'] }).find((l) => l.startsWith("(allow file-write*") && l.includes("a\\\"b"));
    expect(odd).toBe('(allow file-write* (subpath "/w/a\\"b\\\\c"))');
  });

  test("sandbox-exec's arguments: the profile, then env setting and dropping the plan's variables", () => {
    const args = seatbeltArgs(plan, SOCKET);
    expect(args[0]).toBe("-p");
    expect(args.slice(2)).toEqual(["/usr/bin/env", "-u", "SSH_AUTH_SOCK", `TROUPE_SOCKET=${SOCKET}`, "TMPDIR=/run/troupe/x.tmp/ag_1"]);
  });
});
