/**
 * The scene the remote benchmarks share (remote.ts, remote-dashboard.ts): a workspace here and a
 * "host" workspace, each with its own socket in a short runtime folder and their own state and
 * config, and a real sshd on 127.0.0.1 (tests/support/sshd.ts) whose sessions reach the host's
 * daemon. `close()` stops both daemons (agents first, by name) and sshd, and removes the folders.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { Sshd } from "../../tests/support/sshd.ts";
import { BIN } from "./floor.ts";
import { runSync } from "../lib/process.ts";

export interface RemoteScene {
  /** The workspace here, and the host's. */
  dir: string;
  host: string;
  runtime: string;
  socket: string;
  hostSocket: string;
  /** This workspace's environment (`ssh` through the scene's sshd), and the host's. */
  env: Record<string, string>;
  hostEnv: Record<string, string>;
  sshd: Sshd;
  /** Stops these agents here and on the host, both daemons, sshd; removes the folders. */
  close(agents?: { here?: string[]; host?: string[] }): void;
}

export async function remoteScene(): Promise<RemoteScene> {
  const dir = mkdtempSync(join(tmpdir(), "troupe-bench-"));
  const host = mkdtempSync(join(tmpdir(), "troupe-bench-host-"));
  const runtime = mkdtempSync("/tmp/tb-");
  const socket = join(runtime, "d.sock");
  const hostSocket = join(runtime, "h.sock");
  const base = { ...process.env, XDG_CONFIG_HOME: join(runtime, "config"), XDG_STATE_HOME: join(runtime, "state") } as Record<string, string>;
  const hostEnv: Record<string, string> = { ...base, TROUPE_WORKSPACE: host, TROUPE_SOCKET: hostSocket };
  for (const d of [dir, host]) runSync(["git", "init", "-q", d]);
  const sshd = await Sshd.start({ TROUPE_SOCKET: hostSocket, XDG_STATE_HOME: hostEnv.XDG_STATE_HOME!, XDG_CONFIG_HOME: join(runtime, "host-config") });
  const env: Record<string, string> = { ...base, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket, TROUPE_SSH_COMMAND: sshd.sshCommand };
  const close = (agents: { here?: string[]; host?: string[] } = {}) => {
    // agents outlive their daemon by design: stopped first
    for (const name of agents.here ?? []) runSync([BIN, "stop", name], { env });
    for (const name of agents.host ?? []) runSync([BIN, "stop", name], { env: hostEnv });
    runSync([BIN, "daemon", "stop"], { env });
    runSync([BIN, "daemon", "stop"], { env: hostEnv });
    sshd.close();
    for (const d of [dir, host, runtime]) rmSync(d, { recursive: true, force: true });
  };
  return { dir, host, runtime, socket, hostSocket, env, hostEnv, sshd, close };
}
