import type { SandboxPlan } from "./bwrap.ts";

/** A string literal of the profile language (a Scheme string). */
const str = (s: string) => `"${s.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;

const deeper = (p: string, dir: string) => p !== dir && p.startsWith(dir.endsWith("/") ? dir : `${dir}/`);

/** `(subpath dir)`, less the folders of `except` inside it: what one rule opens. */
function within(dir: string, except: readonly string[]): string {
  const inside = [...new Set(except.filter((e) => deeper(e, dir)))].sort();
  return inside.length ? `(require-all (subpath ${str(dir)}) ${inside.map((e) => `(require-not (subpath ${str(e)}))`).join(" ")})` : `(subpath ${str(dir)})`;
}

/**
 * The system services an agent may look up, by name, never all of them: logging, user and group
 * lookups, TLS trust and the keychain (a CLI's login lives there: Claude Code keeps its own in
 * it), the per-user temp folder, and launch services.
 */
const MACH_SERVICES = [
  "com.apple.logd",
  "com.apple.system.logger",
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.opendirectoryd.membership",
  "com.apple.trustd",
  "com.apple.trustd.agent",
  "com.apple.SecurityServer",
  "com.apple.securityd.xpc",
  "com.apple.bsd.dirhelper",
  "com.apple.system.notification_center",
  "com.apple.coreservices.launchservicesd",
  "com.apple.lsd.mapdb",
];

/**
 * The macOS sandbox (Seatbelt, `sandbox-exec -p`) for a plan: the same policy as bubblewrap's,
 * as rules that only allow (their union is what the agent may do, so no rule's order or
 * precedence matters). Reading: the system, less HOME, /tmp and the hidden folders; then each
 * folder the plan shows, less the hidden ones inside it. Writing: each writable folder, less what
 * is read-only or hidden inside it. Processes: only its own (`same-sandbox`). Network: all, or
 * only the daemon's socket. Seatbelt has no tmpfs: the plan's TMPDIR is a private folder. Not run
 * on any machine here (no macOS): tests/sandbox/seatbelt.test.ts reads the text.
 */
export function seatbeltProfile(plan: SandboxPlan, agentSocket: string): string {
  // the person's temp folders too ($TMPDIR is under /var/folders): other programs' files, a runtime folder
  const tmp = ["/tmp", "/private/tmp", "/var/folders", "/private/var/folders"];
  const emptied = plan.home === "/" ? tmp : [plan.home, ...tmp];
  const hidden = plan.hidden;
  const shown = [...plan.readOnly, ...plan.writable];
  const closedInside = [...plan.readOnlyAgain, ...hidden, ...plan.readOnly];
  const lines = [
    "(version 1)",
    "(deny default)",
    // its own processes: start, see and signal them, no other
    "(allow process-exec process-fork)",
    "(allow process-info* (target same-sandbox))",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read ipc-posix-shm* ipc-posix-sem iokit-open user-preference-read pseudo-tty)",
    `(allow mach-lookup ${MACH_SERVICES.map((n) => `(global-name ${str(n)})`).join(" ")})`,
    `(allow file-read* (require-all (subpath "/") ${[...emptied, ...hidden].map((p) => `(require-not (subpath ${str(p)}))`).join(" ")}))`,
    ...shown.map((p) => `(allow file-read* ${within(p, hidden)})`),
    `(allow file-read-metadata (literal ${str(plan.home)}))`,
    ...plan.writable.map((p) => `(allow file-write* ${within(p, closedInside)})`),
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
    ...(plan.network === "all"
      ? ["(allow network*)"]
      : [`(allow network-outbound (remote unix-socket (path-literal ${str(agentSocket)})))`]),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * `sandbox-exec`'s arguments for the plan, before the agent's argv: the profile, then `env`,
 * which sets and drops the plan's variables (Seatbelt keeps the environment as it is).
 */
export function seatbeltArgs(plan: SandboxPlan, agentSocket: string): string[] {
  const env = [...plan.unsetenv.flatMap((k) => ["-u", k]), ...Object.entries(plan.setenv).map(([k, v]) => `${k}=${v}`)];
  return ["-p", seatbeltProfile(plan, agentSocket), "/usr/bin/env", ...env];
}
