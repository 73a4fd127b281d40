import { isAbsolute, join, normalize, sep } from "node:path";
import { TroupeError } from "../../errors.ts";
import { writeGuarded } from "../../guarded-fs.ts";
import type { AgentMode } from "../../protocol/work.ts";

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

/**
 * Writes prompt.md, manifest.json and `files` into an agent's input folder. The folder is in the
 * agent's worktree, which a branch shapes (a committed `.troupe/input` link): nothing is written
 * through a link below `trusted` (the workspace's `.troupe/`).
 */
export function writeInput(dir: string, prompt: string, manifest: Record<string, unknown>, files: InputFile[] = [], trusted = dir): void {
  writeGuarded(join(dir, "prompt.md"), prompt, trusted);
  for (const f of files) {
    const rel = normalize(f.path);
    if (isAbsolute(rel) || rel === ".." || rel.startsWith(`..${sep}`)) throw new TroupeError("internal", `input file ${f.path} would leave the input folder`);
    writeGuarded(join(dir, rel), f.content, trusted);
  }
  writeGuarded(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`, trusted);
}
