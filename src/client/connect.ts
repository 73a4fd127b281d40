import type { ChildProcess } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { quietEnv, sleep } from "../runtime/process.ts";
import { selfCommand } from "../self.ts";
import { isProcessAlive } from "../process-info.ts";
import { lockFilePath, readLockFile } from "../lock-file.ts";
import { notAWorkspace, type Workspace } from "../workspace.ts";
import { TroupeClient } from "./client.ts";
import { UnixSocketTransport } from "./transport.ts";
import { program } from "../runtime/program.ts";

const START_DEADLINE_MS = 10_000;

const token = () => program.env("TROUPE_AGENT_TOKEN") || undefined;

/** A client of the workspace's daemon; the caller's agent token comes from the environment. */
export function clientFor(ws: Workspace): TroupeClient {
  return new TroupeClient({ transport: new UnixSocketTransport(ws.socket, ws.root), token: token() });
}

/** A client that starts the daemon when none answers, and restarts one left by an older build. */
export function autostartingClient(ws: Workspace): TroupeClient {
  const transport = new UnixSocketTransport(ws.socket, ws.root);
  // requests sent at once that all found no daemon share one start (the dashboard's first
  // snapshot asks for five things beside its health check)
  let starting: Promise<void> | null = null;
  transport.start = (why) => {
    starting ??= (async () => {
      if (why === "outdated") await waitForExit(ws);
      await ensureDaemon(ws, transport);
    })().finally(() => (starting = null));
    return starting;
  };
  return new TroupeClient({ transport, token: token() });
}

/**
 * Refuses to bring back a deleted workspace (an agent still asking from inside it must not recreate
 * it), and to make one of a folder nobody made a workspace (`troupe account ls` in ~/Downloads).
 */
function assertWorkspace(ws: Workspace): void {
  if (!existsSync(ws.root)) throw new TroupeError("workspace_missing", `the workspace folder ${ws.root} no longer exists`);
  if (ws.unclaimed) throw notAWorkspace(ws);
}

/** Starts `troupe daemon run` detached, its output to the daemon log; the lock decides who stays. */
async function startDetachedDaemon(ws: Workspace): Promise<ChildProcess> {
  assertWorkspace(ws);
  // loaded here: only a client that starts the daemon needs it (~0.5 ms of every command otherwise)
  const { spawn } = await import("node:child_process");
  mkdirSync(ws.stateDir, { recursive: true, mode: 0o700 });
  const log = openSync(join(ws.stateDir, "daemon.log"), "a", 0o600);
  const [cmd, ...args] = selfCommand();
  const child = spawn(cmd!, [...args, "daemon", "run", "--workspace", ws.root], {
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, ...quietEnv(), TROUPE_SOCKET: ws.socket },
    cwd: ws.root,
  });
  child.unref();
  closeSync(log);
  return child;
}

async function isUp(client: TroupeClient): Promise<boolean> {
  try {
    await client.health();
    return true;
  } catch (err) {
    if (err instanceof TroupeError && err.code === "daemon_unavailable") return false;
    throw err;
  }
}

/** The live process holding the workspace lock, with the socket it wrote there. */
function lockHolder(ws: Workspace): { pid: number; socket: string } | null {
  const held = readLockFile(ws.stateDir);
  return held && isProcessAlive(held.pid, null) ? held : null;
}

/** Waits for the daemon holding the lock (one stepping aside for a newer build) to be gone. */
export async function waitForExit(ws: Workspace): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  const held = lockHolder(ws);
  while (held && isProcessAlive(held.pid, null)) {
    if (Date.now() > deadline) throw new TroupeError("daemon_unavailable", `daemon ${held.pid} did not stop within ${START_DEADLINE_MS / 1000} s`);
    await sleep(20);
  }
}

/** How long an agent in a sandbox waits for the workspace's daemon to come back. */
const SANDBOX_WAIT_MS = 10 * 60_000;

/**
 * An agent in a sandbox cannot start the daemon (it would run inside, without the store): it waits
 * for the next one, which the person's next command, a dashboard or an ACP runner (outside the
 * sandbox) starts. Its socket's folder is bound in, so the new socket is seen. Said once, bounded.
 */
async function waitInSandbox(ws: Workspace, probe: TroupeClient): Promise<TroupeClient> {
  process.stderr.write(`troupe: the workspace's daemon is not running; waiting for it to come back (a sandboxed agent cannot start it)\n`);
  const deadline = Date.now() + SANDBOX_WAIT_MS;
  let delay = 50;
  while (Date.now() < deadline) {
    await sleep(delay);
    if (await isUp(probe)) return probe;
    delay = Math.min(delay * 2, 1000);
  }
  throw new TroupeError("daemon_unavailable", `no daemon answered on ${ws.socket} within ${SANDBOX_WAIT_MS / 60_000} minutes`);
}

/** What a client found when no daemon answered in time: the message names it. */
function whyUnreachable(ws: Workspace): string {
  const held = lockHolder(ws);
  if (!held) return `the daemon did not start; see ${join(ws.stateDir, "daemon.log")}`;
  if (!existsSync(held.socket)) return `daemon ${held.pid} holds ${lockFilePath(ws.stateDir)} but its socket ${held.socket} is missing; stop it (kill ${held.pid}) and try again`;
  return `daemon ${held.pid} holds ${lockFilePath(ws.stateDir)} but does not answer on ${held.socket}; see ${join(ws.stateDir, "daemon.log")}`;
}

/**
 * Waits until a daemon answers, starting one if none does; like tmux, the first client starts it.
 * `follower` (when given) follows the socket the daemon turns out to be on.
 */
export async function ensureDaemon(ws: Workspace, follower?: UnixSocketTransport): Promise<TroupeClient> {
  // never autostarts: this is the autostart
  const probeSocket = new UnixSocketTransport(ws.socket, ws.root);
  const probe = new TroupeClient({ transport: probeSocket, token: token() });
  if (await isUp(probe)) return probe;
  if (program.env("TROUPE_SANDBOX")) return waitInSandbox(ws, probe);
  let child = await startDetachedDaemon(ws);
  let childExited = false;
  child.once("exit", () => (childExited = true));
  const deadline = Date.now() + START_DEADLINE_MS;
  let delay = 5;
  while (Date.now() < deadline) {
    await sleep(delay);
    if (await isUp(probe)) return probe;
    delay = Math.min(delay * 2, 100);
    const held = lockHolder(ws);
    if (held && held.socket !== probeSocket.socket) {
      if (ws.socketExplicit) {
        throw new TroupeError("daemon_unavailable", `a daemon already serves ${ws.root} on another socket (${held.socket}); set TROUPE_SOCKET to it or stop it`);
      }
      // started meanwhile with another TROUPE_SOCKET (by an agent, a script): that is the workspace's daemon
      ws.socket = probeSocket.socket = held.socket;
      if (follower) follower.socket = held.socket;
      continue;
    }
    if (!held && childExited) {
      // ours lost the lock to a daemon that was still going away: start another
      child = await startDetachedDaemon(ws);
      childExited = false;
      child.once("exit", () => (childExited = true));
    }
  }
  throw new TroupeError("daemon_unavailable", whyUnreachable(ws));
}
