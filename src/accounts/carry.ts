import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { Provider } from "../../providers/types.ts";

/** Where each CLI keeps its state when its config variable is unset, under $HOME. */
const DEFAULT_HOME: Readonly<Record<string, string>> = {
  CLAUDE_CONFIG_DIR: ".claude",
  CODEX_HOME: ".codex",
  GEMINI_CLI_HOME: "",
  XDG_DATA_HOME: ".local/share",
};

/** The folder holding the CLI's sessions for a run with `env`; null when the provider has no config variable. */
export function sessionHome(provider: Provider, env: Readonly<Record<string, string>>): string | null {
  const v = provider.accountEnv;
  if (!v) return null;
  if (env[v]) return env[v];
  const sub = DEFAULT_HOME[v];
  return sub === undefined ? null : join(env.HOME || homedir(), sub);
}

const MAX_DEPTH = 5;

/** Files under `dir` (not following links) whose name holds `id`: a CLI names its session files by their id. */
function filesNamed(dir: string, id: string, depth = 0, out: string[] = []): string[] {
  if (depth > MAX_DEPTH) return out;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) filesNamed(path, id, depth + 1, out);
    else if (e.isFile() && e.name.includes(id)) out.push(path);
  }
  return out;
}

/**
 * Carries a provider session from one account's folder to another's (Claude Code keeps
 * `projects/<cwd>/<session id>.jsonl` under CLAUDE_CONFIG_DIR, Codex `sessions/.../rollout-...-<id>.jsonl`
 * under CODEX_HOME): the files named by the session id are copied to the same place in the new
 * folder, never over one that is there. True when the session is there to resume (the same
 * folder, or files copied); false when none was found, and the run starts afresh.
 */
export function carrySession(from: string, to: string, sessionId: string): boolean {
  if (from === to) return true;
  const files = filesNamed(from, sessionId);
  for (const f of files) {
    const dest = join(to, relative(from, f));
    if (existsSync(dest)) continue;
    mkdirSync(dirname(dest), { recursive: true, mode: 0o700 });
    copyFileSync(f, dest);
  }
  return files.length > 0 && files.every((f) => statSync(join(to, relative(from, f)), { throwIfNoEntry: false }) !== undefined);
}
