import { dirname, join } from "node:path";
import type { AgentMode } from "../protocol/work.ts";

/**
 * What a mode prompt is rendered from: the run's real id, name and paths (never a placeholder the
 * agent would have to guess), the ids it works on, and what its provider can do.
 */
export interface ModePromptContext {
  id: string;
  name: string;
  mode: AgentMode;
  /** `.troupe/input` of its worktree, absolute. */
  inputDir: string;
  /** This troupe by absolute path (a login shell may reset PATH). */
  troupe: string;
  initiativeId: string;
  phaseId: string | null;
  taskId: string | null;
  /** The input files written for it, relative to `inputDir` (as manifest.json lists them). */
  files: string[];
  /** Its CLI takes messages while it runs (the provider's `liveInput`): no background listener. */
  liveInput: boolean;
}

/** A path as one shell word: quoted only when it has to be. */
export function shellWord(path: string): string {
  return /^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`;
}

/** The agent's own `.troupe/` folder of its worktree. */
function troupeDir(c: Pick<ModePromptContext, "inputDir">): string {
  return dirname(c.inputDir);
}

export function outputDir(c: Pick<ModePromptContext, "inputDir">): string {
  return join(troupeDir(c), "output");
}
