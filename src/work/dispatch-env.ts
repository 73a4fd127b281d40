import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { TroupeError, errorMessage } from "../errors.ts";
import { writePrivateFile } from "../file-modes.ts";
import { withoutTroupeVars } from "../agents/processes/session-env.ts";
import { identityEnv, type GitIdentity } from "../git/merge.ts";

const CapturedSchema = z.object({
  env: z.record(z.string(), z.string()),
  identity: z.object({ name: z.string(), email: z.string() }),
});
export type Captured = z.infer<typeof CapturedSchema>;

/**
 * What `troupe dispatch` captured of the person: their environment (API keys among it) and their
 * git identity, used for every run and merge the daemon starts for that initiative. Kept as agents'
 * environments are (src/agents/files/saved-env.ts): `.troupe/initiatives/<id>/dispatch.json`, 0600 in a
 * 0700 folder, written atomically, never in the store; removed when dispatching stops.
 */
export class DispatchEnvStore {
  constructor(private readonly stateDir: string) {}

  path(initiativeId: string): string {
    return join(this.stateDir, "initiatives", initiativeId, "dispatch.json");
  }

  save(initiativeId: string, env: Record<string, string>, identity: GitIdentity): void {
    writePrivateFile(this.path(initiativeId), `${JSON.stringify({ env: withoutTroupeVars(env), identity })}\n`);
  }

  /** The capture; a missing or damaged file is an error naming it, never an empty environment. */
  load(initiativeId: string, slug: string): Captured {
    const path = this.path(initiativeId);
    const unusable = (why: string, cause?: unknown) =>
      new TroupeError("invalid_state", `initiative ${slug}'s dispatch environment ${path} ${why}; 'troupe dispatch ${slug}' from a shell captures yours again`, { cause });
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (err) {
      throw unusable((err as NodeJS.ErrnoException).code === "ENOENT" ? "is missing" : `cannot be read (${errorMessage(err)})`, err);
    }
    let parsed: ReturnType<typeof CapturedSchema.safeParse>;
    try {
      parsed = CapturedSchema.safeParse(JSON.parse(text));
    } catch (err) {
      throw unusable("is not JSON", err);
    }
    if (!parsed.success) throw unusable("does not hold an environment and an identity");
    return parsed.data;
  }

  remove(initiativeId: string): void {
    rmSync(this.path(initiativeId), { force: true });
  }
}

/** A run's environment: the person's, with their captured identity where it names none itself. */
export function runEnv(c: Captured): Record<string, string> {
  return { ...identityEnv(c.identity), ...c.env };
}
