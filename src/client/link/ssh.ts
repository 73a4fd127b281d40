import type { Remote } from "../../protocol/remote.ts";

/** Seconds ssh gets to connect (and the link to greet) before a remote counts as unreachable. */
const DEFAULT_CONNECT_TIMEOUT_S = 10;

/** How long a remote gets to connect, greet and answer: `TROUPE_REMOTE_TIMEOUT` seconds, else the default. */
export function connectTimeoutS(env: NodeJS.ProcessEnv = process.env): number {
  const s = Number(env.TROUPE_REMOTE_TIMEOUT);
  return Number.isFinite(s) && s > 0 ? s : DEFAULT_CONNECT_TIMEOUT_S;
}

/** The longest the daemon holds a request on purpose (a long poll: `wait`, at most 60 s). */
const LONGEST_HOLD_MS = 60_000;

/**
 * How long a request over a link gets for its whole reply: `TROUPE_REMOTE_REQUEST_TIMEOUT`
 * seconds, else the longest hold of a long poll plus the connect timeout (`connectMs`) for the
 * way there and back.
 */
export function requestTimeoutMs(connectMs: number, env: NodeJS.ProcessEnv = process.env): number {
  const s = Number(env.TROUPE_REMOTE_REQUEST_TIMEOUT);
  return Number.isFinite(s) && s > 0 ? s * 1000 : LONGEST_HOLD_MS + connectMs;
}

/** `'text'` for a POSIX shell (and fish): safe whatever the text holds. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line the host's login shell runs: troupe with `args`. `troupe` names the command
 * there (a shell fragment of the person's, used as given); by default `troupe` on the host's PATH,
 * else `~/.local/bin/troupe` (where `troupe remote install` puts it: a non-interactive ssh session
 * often lacks the PATH a login shell sets up). Run through `sh -c` whatever the login shell is;
 * no troupe exits 127 with a line saying so.
 */
export function remoteCommand(troupe: string | undefined, args: readonly string[]): string {
  const quoted = args.map(shellQuote).join(" ");
  if (troupe) return `${troupe} ${quoted}`;
  const script =
    'if command -v troupe >/dev/null 2>&1; then exec troupe "$@"; elif [ -x "$HOME/.local/bin/troupe" ]; then exec "$HOME/.local/bin/troupe" "$@"; ' +
    'else echo "troupe: not found on this host (not on PATH, no ~/.local/bin/troupe)" >&2; exit 127; fi';
  return `sh -c ${shellQuote(script)} troupe ${quoted}`;
}

export interface SshOptions {
  /** `-t`: a terminal for a person (attach), which may also prompt; else `-T` and never a prompt. */
  tty?: boolean;
  connectTimeoutS?: number;
}

/**
 * The argv that runs `command` on the remote's host with OpenSSH: `ssh`, or `$TROUPE_SSH_COMMAND`
 * (run by `sh`, as git runs GIT_SSH_COMMAND, so it may carry its own options: `ssh -F my.conf`).
 * Your ssh config, agent, keys and jump hosts apply; troupe adds only what a link needs: no
 * prompt on a link (BatchMode), a connect timeout, and keep-alives that end a link to a host
 * gone silent (laptop asleep, network changed) within ~15 s instead of hanging.
 */
export function sshArgv(remote: Pick<Remote, "host" | "port">, command: string, opts: SshOptions = {}, env: NodeJS.ProcessEnv = process.env): string[] {
  const custom = env.TROUPE_SSH_COMMAND?.trim();
  const base = custom ? ["sh", "-c", `${custom} "$@"`, "ssh"] : ["ssh"];
  const timeout = Math.max(1, Math.round(opts.connectTimeoutS ?? connectTimeoutS(env)));
  const args = [
    opts.tty ? "-t" : "-T",
    ...(opts.tty ? [] : ["-o", "BatchMode=yes"]),
    "-o",
    `ConnectTimeout=${timeout}`,
    "-o",
    "ServerAliveInterval=5",
    "-o",
    "ServerAliveCountMax=3",
    ...(remote.port ? ["-p", String(remote.port)] : []),
    remote.host,
    command,
  ];
  return [...base, ...args];
}

/**
 * `[user@]host[:port]` as `troupe remote add` takes it (`[::1]:2222` for an IPv6 address with a
 * port); null when it is not one.
 */
export function parseDestination(text: string): { host: string; port?: number } | null {
  const bracket = /^((?:[^@\s]+@)?)\[([0-9a-fA-F:.]+)\](?::(\d+))?$/.exec(text);
  if (bracket) return withPort(`${bracket[1]}${bracket[2]}`, bracket[3]);
  const m = /^([^\s:'"]+?)(?::(\d+))?$/.exec(text);
  if (!m || m[1]!.startsWith("-") || m[1]!.endsWith("@")) return null;
  return withPort(m[1]!, m[2]);
}

function withPort(host: string, port: string | undefined): { host: string; port?: number } | null {
  if (port === undefined) return { host };
  const n = Number(port);
  return n >= 1 && n <= 65535 ? { host, port: n } : null;
}

/** `user@host:2222`, as messages show it. */
export function destinationOf(remote: Pick<Remote, "host" | "port">): string {
  if (!remote.port) return remote.host;
  const at = remote.host.lastIndexOf("@");
  const user = remote.host.slice(0, at + 1);
  const host = remote.host.slice(at + 1);
  return `${user}${host.includes(":") ? `[${host}]` : host}:${remote.port}`;
}
