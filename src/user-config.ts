import { statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { UserConfigSchema, type UserConfig } from "./protocol/user-config.ts";
import { readJsonConfig } from "./json-config.ts";

/** `$XDG_CONFIG_HOME/troupe/config.json`, else `~/.config/troupe/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "troupe", "config.json");
}

/** The user's config, read afresh at each call (edits take effect without a restart); none is an empty one. */
export function readUserConfig(env: NodeJS.ProcessEnv = process.env): UserConfig {
  return readJsonConfig(userConfigPath(env), UserConfigSchema, "config") ?? {};
}

/** A file changed this recently may change again within its timestamps' resolution unseen: read it again. */
const RACY_MS = 1_000;

/**
 * `readUserConfig` for a reader called per event (the daemon's notifier, at every question to the
 * person): the file is read, resolved and checked again only when a stat of it (the link followed)
 * says it changed (another file, size, modification or change time), or changed too recently to
 * tell. Edits still apply without a restart; what is unchanged costs a stat, not a read.
 */
export function userConfigReader(env: NodeJS.ProcessEnv = process.env, read: (env: NodeJS.ProcessEnv) => UserConfig = readUserConfig): () => UserConfig {
  let seen: string | null = null;
  let config: UserConfig = {};
  return () => {
    const path = userConfigPath(env);
    let key = "none";
    try {
      const st = statSync(path, { bigint: true, throwIfNoEntry: false });
      if (st) key = Date.now() - Number(st.mtimeMs) < RACY_MS || Date.now() - Number(st.ctimeMs) < RACY_MS ? "racy" : `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
    } catch {
      key = "racy"; // not stat-able (a link loop, no permission): the read says what is wrong
    }
    if (key === seen && key !== "racy") return config;
    seen = null;
    config = read(env); // throws as it always did on a broken file: nothing is kept then
    seen = key;
    return config;
  };
}
