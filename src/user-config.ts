import { homedir } from "node:os";
import { join } from "node:path";
import { UserConfigSchema, type UserConfig } from "./protocol/user-config.ts";
import { readJsonConfig } from "./workspace-config.ts";

/** `$XDG_CONFIG_HOME/troupe/config.json`, else `~/.config/troupe/config.json`. */
export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "troupe", "config.json");
}

/** The user's config, read afresh at each call (edits take effect without a restart); none is an empty one. */
export function readUserConfig(env: NodeJS.ProcessEnv = process.env): UserConfig {
  return readJsonConfig(userConfigPath(env), UserConfigSchema, "config") ?? {};
}
