import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, normalize, sep } from "node:path";
import { z } from "zod";
import { TroupeError } from "../errors.ts";
import { writePrivateFile } from "../file-modes.ts";
import { AgentModeSchema, type AgentMode } from "../protocol/work.ts";

/** One file of an agent's `.troupe/input/`, its path relative to that folder. */
export interface InputFile {
  path: string;
  content: string;
}

/**
 * What makes a spawn a mode run of the work model (src/work/modes.ts builds it): the mode, what it
 * works on, and its input files (written before its first session starts, so it never looks
 * before they are there). The prompt is the mode's (src/prompts/modes.ts), with the agent's id.
 */
export interface SpawnWork {
  mode: AgentMode;
  initiativeId: string;
  phaseId: string | null;
  taskId: string | null;
  files: InputFile[];
}

/** Writes prompt.md, manifest.json and `files` into an agent's input folder. */
export function writeInput(dir: string, prompt: string, manifest: Record<string, unknown>, files: InputFile[] = []): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "prompt.md"), prompt);
  for (const f of files) {
    const rel = normalize(f.path);
    if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) throw new TroupeError("internal", `input file ${f.path} would leave the input folder`);
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), f.content);
  }
  writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

const WorkRecordSchema = z.object({
  mode: AgentModeSchema,
  initiativeId: z.string(),
  phaseId: z.string().nullable(),
  taskId: z.string().nullable(),
  /** The last session whose outputs were imported (0: none yet): an end is imported once. */
  importedSession: z.number().int().nonnegative(),
});
export type WorkRecord = z.infer<typeof WorkRecordSchema>;

/**
 * A mode agent's work, kept by the daemon in `.troupe/agents/<id>/work.json` (beside its env.json,
 * removed with it), never in the agent's worktree where the agent could change it. The agents
 * table gains `mode` and `initiative_id` with the work model's store; the import mark stays here.
 */
export class AgentWorkStore {
  constructor(private readonly stateDir: string) {}

  private path(id: string): string {
    return join(this.stateDir, "agents", id, "work.json");
  }

  get(id: string): WorkRecord | null {
    let text: string;
    try {
      text = readFileSync(this.path(id), "utf8");
    } catch {
      return null;
    }
    try {
      const parsed = WorkRecordSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data : null;
    } catch {
      return null;
    }
  }

  save(id: string, rec: WorkRecord): void {
    writePrivateFile(this.path(id), `${JSON.stringify(rec)}\n`);
  }
}
