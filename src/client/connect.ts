import { spawn } from "node:child_process";
import { mkdirSync, openSync, closeSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { selfCommand } from "../self.ts";
import { isProcessAlive } from "../process-info.ts";
import { readLockFile } from "../lock-file.ts";
import type { Workspace } from "../workspace.ts";
import { TroupeClient } from "./client.ts";

const START_DEADLINE_MS = 10_000;

/** A client of the workspace's daemon; the caller's agent token comes from the environment. */
export function clientFor(ws: Workspace): TroupeClient {
  return new TroupeClient({ socket: ws.socket, token: process.env.TROUPE_AGENT_TOKEN || undefined });
}

/** Starts `troupe daemon run` detached, its output to the daemon log; the lock decides who stays. */
export function startDetachedDaemon(ws: Workspace): void {
  mkdirSync(ws.stateDir, { recursive: true });
  const log = openSync(join(ws.stateDir, "daemon.log"), "a");
  const [cmd, ...args] = selfCommand();
  const child = spawn(cmd!, [...args, "daemon", "run", "--workspace", ws.root], {
    detached: true,
    stdio: ["ignore", log, log],
    env: { ...process.env, TROUPE_SOCKET: ws.socket },
    cwd: ws.root,
  });
  child.unref();
  closeSync(log);
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

/** Waits until a daemon answers, starting one if none does; like tmux, the first client starts it. */
export async function ensureDaemon(ws: Workspace, client = clientFor(ws)): Promise<TroupeClient> {
  if (await isUp(client)) return client;
  startDetachedDaemon(ws);
  const deadline = Date.now() + START_DEADLINE_MS;
  let delay = 5;
  while (Date.now() < deadline) {
    await Bun.sleep(delay);
    if (await isUp(client)) return client;
    delay = Math.min(delay * 2, 100);
    const held = readLockFile(ws.stateDir);
    if (held && held.socket !== ws.socket && isProcessAlive(held.pid, null)) {
      throw new TroupeError("daemon_unavailable", `a daemon already serves ${ws.root} on another socket (${held.socket}); set TROUPE_SOCKET to it or stop it`);
    }
  }
  throw new TroupeError("daemon_unavailable", `the daemon did not start; see ${join(ws.stateDir, "daemon.log")}`);
}

/**
 * Runs `fn`, and when the daemon went away meanwhile (the connection broke mid-request), tries
 * again until `deadline`; the client's autostart brings a daemon back on the next request.
 */
export async function withReconnect<T>(deadline: number, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof TroupeError && err.code === "daemon_unavailable") || Date.now() >= deadline) throw err;
      await Bun.sleep(100);
    }
  }
}
