import type { Provider } from "../../../providers/types.ts";
import { joinBlocks, type RenderedBlock } from "../../prompts/block.ts";
import { modePromptBlocks } from "../../prompts/modes.ts";
import type { SpawnWork } from "../files/input-folder.ts";

export interface ModePrompt {
  prompt: string;
  blocks: RenderedBlock[];
}

/** The id and name `troupe prompt` shows for an agent that does not exist yet. */
export const PREVIEW_AGENT = { id: "AGENT_ID", name: "AGENT_NAME" } as const;

/**
 * The prompt of a mode run as its agent gets it: what a spawn sends (and writes to prompt.md),
 * and what `troupe prompt` prints, from one function so the two cannot drift apart.
 */
export function modePrompt(a: { id: string; name: string; inputDir: string; troupe: string; provider: Provider; work: SpawnWork }): ModePrompt {
  const { work } = a;
  const blocks = modePromptBlocks({
    id: a.id,
    name: a.name,
    mode: work.mode,
    inputDir: a.inputDir,
    troupe: a.troupe,
    initiativeId: work.initiativeId,
    phaseId: work.phaseId,
    taskId: work.taskId,
    files: work.files.map((f) => f.path),
    liveInput: a.provider.liveInput !== undefined,
  });
  return { prompt: joinBlocks(blocks), blocks };
}
