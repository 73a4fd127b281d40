import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { TroupeError, errorMessage } from "../../errors.ts";
import { writePrivateFile } from "../../file-modes.ts";
import type { Store } from "../../store/index.ts";
import type { Logger } from "../../events/log.ts";
import { withoutTroupeVars } from "../processes/session-env.ts";

const EnvSchema = z.record(z.string(), z.string());

/**
 * Each agent's environment (the spawning client's: API keys among it), kept out of the store in
 * `.troupe/agents/<id>/env.json`, 0600 in a 0700 folder, removed with the agent. Every session
 * after the first (resumes, and runs started without a client) reads it from here.
 */
export class AgentEnvStore {
  constructor(private readonly stateDir: string) {}

  /** By id: names are reused after `rm`, ids never (and `_` keeps them apart from name folders). */
  dir(id: string): string {
    return join(this.stateDir, "agents", id);
  }

  path(id: string): string {
    return join(this.dir(id), "env.json");
  }

  /** Keeps `env` without troupe's own variables (minted fresh for every session). */
  save(id: string, env: Record<string, string>): void {
    writePrivateFile(this.path(id), `${JSON.stringify(withoutTroupeVars(env))}\n`);
  }

  /** The saved environment; a missing or damaged file is an error, never an empty environment. */
  load(id: string, name: string): Record<string, string> {
    const path = this.path(id);
    const unusable = (why: string, cause?: unknown) =>
      new TroupeError("invalid_state", `${name}'s saved environment ${path} ${why}; 'troupe resume ${name}' from a shell gives it yours`, { cause });
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw unusable((err as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : `cannot be read (${errorMessage(err)})`, err);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw unusable("is not JSON", err);
    }
    const parsed = EnvSchema.safeParse(json);
    if (!parsed.success) throw unusable("is not an object of strings");
    return parsed.data;
  }

  remove(id: string): void {
    rmSync(this.dir(id), { recursive: true, force: true });
  }
}

/**
 * Once, after the store reached schema 5: environments an older troupe kept in the store move to
 * their files, are blanked there, and the store is rewritten so the old text is gone from the
 * file too (the marked rows are the marker: a crash midway redoes the same writes).
 */
export function moveLegacyEnvs(store: Store, envs: AgentEnvStore, log: Logger): void {
  const legacy = store.agents.legacyEnvs();
  if (!legacy.length) return;
  for (const a of legacy) {
    if (a.env) envs.save(a.id, a.env);
    else log.warn(`agent ${a.name}'s stored environment was damaged and is dropped; a resume needs an environment`);
  }
  store.agents.clearLegacyEnvs(legacy.map((a) => a.id));
  store.scrub();
  log.info(`moved ${legacy.length} agents' environments out of the store into .troupe/agents/<id>/env.json`);
}
