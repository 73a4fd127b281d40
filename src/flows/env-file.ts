import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { TroupeError, errorMessage } from "../errors.ts";
import { writePrivateFile } from "../file-modes.ts";
import { withoutTroupeVars } from "../agents/processes/session-env.ts";

/**
 * The environment captured at `flow add` (API keys among it): `.troupe/flows/<id>/env.json`, 0600
 * in a 0700 folder, as agents' are (src/agents/files/saved-env.ts); every run and its gate get it.
 */
export class FlowEnvFiles {
  constructor(private readonly stateDir: string) {}

  private path(id: string): string {
    return join(this.stateDir, "flows", id, "env.json");
  }

  save(id: string, env: Record<string, string>): void {
    writePrivateFile(this.path(id), `${JSON.stringify(withoutTroupeVars(env))}\n`);
  }

  /** A missing or damaged file refuses the run (never an empty environment). */
  load(id: string, name: string): Record<string, string> {
    const path = this.path(id);
    try {
      const parsed = z.record(z.string(), z.string()).safeParse(JSON.parse(readFileSync(path, "utf8")));
      if (parsed.success) return parsed.data;
    } catch (err) {
      throw new TroupeError("invalid_state", `flow ${name}'s environment ${path} cannot be read (${errorMessage(err)}); add the flow again`);
    }
    throw new TroupeError("invalid_state", `flow ${name}'s environment ${path} is not an object of strings; add the flow again`);
  }

  remove(id: string): void {
    rmSync(join(this.stateDir, "flows", id), { recursive: true, force: true });
  }
}
