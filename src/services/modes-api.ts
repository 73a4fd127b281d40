import type { Caller } from "../agents/caller.ts";
import type { Agent } from "../protocol/entities.ts";
import type { AgentMode } from "../protocol/work.ts";
import type { ModePrompt } from "../agents/mode-prompt.ts";
import type { ModeRunOptions, ModeService } from "../work/modes.ts";
import type { Decision } from "../work/proposals.ts";
import type { Guard } from "./guard.ts";

/** `troupe discuss|plan|refine I`, `troupe detail PHASE` (execute runs come from dispatch). */
export interface ModesApi {
  /** An agent of `mode` on `ref` (an initiative, or a phase for detail); an agent's run is its child. */
  run(caller: Caller, mode: AgentMode, ref: string, req: ModeRunOptions): Promise<Agent>;
  /** The decisions discuss agents took for the initiative. */
  decisions(caller: Caller, initiativeRef: string): Decision[];
  /** What an agent of `mode` on `ref` (null: a placeholder target) would be told, for `provider` (default claude). */
  prompt(caller: Caller, mode: AgentMode, ref: string | null, provider?: string): ModePrompt;
}

export function modesApi(modes: ModeService, guard: Guard): ModesApi {
  return {
    run(caller, mode, ref, req) {
      guard(caller, "modes.run");
      return modes.start(mode, ref, req, caller.kind === "agent" ? caller.agent.id : null);
    },
    decisions(caller, ref) {
      guard(caller, "modes.decisions");
      return modes.decisions(ref);
    },
    prompt(caller, mode, ref, provider) {
      guard(caller, "modes.prompt");
      return modes.prompt(mode, ref, provider);
    },
  };
}
