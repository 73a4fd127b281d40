import { homedir } from "node:os";
import { join } from "node:path";

/**
 * The user's troupe state (`$XDG_STATE_HOME/troupe`, else `~/.local/state/troupe`): accounts and
 * their exhaustion belong to the user, not to a workspace, so every daemon of the user reads the
 * same ones and none starts an agent on an account another found spent.
 */
function userStateDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_STATE_HOME || join(env.HOME || homedir(), ".local", "state");
  return join(base, "troupe");
}

export interface AccountPaths {
  /** The accounts with their secrets: 0600 in a 0700 folder. */
  file: string;
  /** Held (flock) around every read-modify-write of `file`, by any process of the user. */
  lock: string;
}

export function accountPaths(env: NodeJS.ProcessEnv = process.env): AccountPaths {
  const dir = userStateDir(env);
  return { file: join(dir, "accounts.json"), lock: join(dir, "accounts.lock") };
}
