import { execFile } from "node:child_process";
import { TroupeError } from "../errors.ts";
import { shellQuote, sshArgv } from "../client/link/ssh.ts";
import type { SpawnRequest } from "../protocol/api-agents.ts";
import type { Agent } from "../protocol/entities.ts";
import type { PoolHost } from "../protocol/host.ts";
import type { Remote } from "../protocol/remote.ts";
import type { HostPool } from "./pool.ts";

/** Errors that say the link or the host failed, not the request: the link goes. */
const LINK_FAILURES = new Set(["remote_unreachable", "daemon_unavailable", "timeout", "remote_incompatible"]);

/**
 * `ssh://[user@]host[:port]/path` for git: the remote's path as the link takes it (absolute, or
 * from the login folder: `~/src/api` is `/~/src/api`).
 */
export function gitUrl(remote: Pick<Remote, "host" | "port" | "path">): string {
  const at = remote.host.lastIndexOf("@");
  const user = remote.host.slice(0, at + 1);
  const name = remote.host.slice(at + 1);
  const host = name.includes(":") ? `[${name}]` : name;
  // a relative path is from the login folder, as the link takes it
  const path = remote.path.startsWith("/") ? remote.path : remote.path.startsWith("~") ? `/${remote.path}` : `/~/${remote.path}`;
  return `ssh://${user}${host}${remote.port ? `:${remote.port}` : ""}${path}`;
}

/** How long git's shared ssh connection to a host outlives its last push or fetch (s). */
const SHARED_FOR_S = 15;

/**
 * The ssh git runs (GIT_SSH_COMMAND): the links' OpenSSH, `$TROUPE_SSH_COMMAND` or `ssh`, with
 * what a link adds (no prompt, the connect timeout, keep-alives); git appends the destination
 * and its command. With `shareIn` (a folder of the daemon's own), the pushes and fetches to one
 * host share one connection (OpenSSH's ControlMaster), which ends SHARED_FOR_S after the last:
 * a task's push and fetch then cost an exchange, not a login.
 */
export function gitSshCommand(env: NodeJS.ProcessEnv, shareIn?: string): string {
  const argv = sshArgv({ host: "HOST" }, "COMMAND", {}, env);
  // sshArgv: [ssh | sh -c "<custom> $@" ssh] ...options HOST COMMAND
  const options = argv.slice(argv.indexOf("-T") + 1, -2);
  // a socket path is at most 104 bytes (macOS; 108 on Linux), %C is 40 and ssh adds ~17 while it makes it: too long a folder shares nothing
  const shared = shareIn && shareIn.length + "/git-".length + 40 + 17 < 104 ? ["-o", "ControlMaster=auto", "-o", `ControlPath=${shareIn}/git-%C`, "-o", `ControlPersist=${SHARED_FOR_S}`] : [];
  return [env.TROUPE_SSH_COMMAND?.trim() || "ssh", ...options, ...shared].join(" ");
}

/**
 * The pool's hosts as dispatch uses them (src/work/host-port.ts): requests over each host's link,
 * git over the same OpenSSH; `close` ends git's shared connections (the daemon's stop).
 */
export function hostRuns(pool: HostPool, env: NodeJS.ProcessEnv, shareIn?: string) {
  /** The remotes git reached, by name: their shared connections end with `close`. */
  const reached = new Map<string, Remote>();
  const over = async <T>(host: string, call: (client: ReturnType<HostPool["host"]>["client"]) => Promise<T>): Promise<T> => {
    try {
      return await call(pool.host(host).client);
    } catch (err) {
      if (err instanceof TroupeError && LINK_FAILURES.has(err.code)) pool.failed(host);
      throw err;
    }
  };
  return {
    list: (): Promise<PoolHost[]> => pool.list(),
    git: (host: string) => {
      const { remote } = pool.host(host);
      reached.set(host, remote);
      return { url: gitUrl(remote), env: { ...gitEnv(env), GIT_SSH_COMMAND: gitSshCommand(env, shareIn), GIT_SSH_VARIANT: "ssh" } };
    },
    spawn: (host: string, req: SpawnRequest): Promise<Agent> => over(host, (c) => c.spawn(req)),
    agent: (host: string, name: string, signal?: AbortSignal): Promise<Agent | null> =>
      over(host, async (c) => {
        try {
          return await c.agent(name, signal);
        } catch (err) {
          if (err instanceof TroupeError && (err.code === "agent_not_found" || err.code === "not_found")) return null;
          throw err;
        }
      }),
    agentUpdates: async function* (host: string, signal: AbortSignal): AsyncGenerator<Agent> {
      // lifecycle events only: the agents' output stays there
      for await (const { event } of pool.host(host).client.events(null, signal, { output: ["none"] })) if (event.type === "agent:updated" || event.type === "agent:created") yield event.agent;
    },
    resume: (host: string, name: string, message: string): Promise<Agent> => over(host, (c) => c.resume(name, { message })),
    /** `ssh -O exit` for each host git reached: its shared connection ends now, not ControlPersist later. */
    close: async (): Promise<void> => {
      if (!shareIn) return;
      const exits = [...reached.values()].map((r) => {
        const cmd = `${gitSshCommand(env, shareIn)} -O exit ${r.port ? `-p ${r.port} ` : ""}${shellQuote(r.host)}`;
        return new Promise<void>((resolve) => execFile("sh", ["-c", cmd], { env: gitEnv(env), timeout: 5_000 }, () => resolve()));
      });
      reached.clear();
      await Promise.all(exits);
    },
  };
}

/** What git and its ssh need of the daemon's environment: where things are, and the ssh agent when there is one; no editor, pager or config of a shell's. */
const GIT_VARS = ["PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "SSH_AUTH_SOCK"];

function gitEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(GIT_VARS.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]!]])));
}
