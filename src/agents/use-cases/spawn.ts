import type { Agent } from "../../protocol/entities.ts";
import { worktreePath } from "../../git/worktree.ts";
import type { SpawnWork } from "../files/input-folder.ts";
import type { SpawnRole } from "../files/spawn-role.ts";
import { failRun } from "../lifecycle/fail-run.ts";
import { agentPaths } from "../paths.ts";
import type { AgentParts } from "../runtime.ts";
import { modePrompt, PREVIEW_AGENT, type ModePrompt } from "../start/mode-prompt.ts";
import { Spawner, type SpawnOptions } from "../start/new-agent.ts";
import { providerNamed } from "../start/provider-named.ts";

type SpawnParts = Pick<AgentParts, "ws" | "store" | "bus" | "log" | "binDir" | "accounts" | "envs" | "launches" | "startSession" | "troupe">;

/** New agents: a spawn (src/agents/start/new-agent.ts), a mode run's prompt previewed, a run failed for its outputs. */
export class SpawnAgent {
  private readonly spawner: Spawner;

  constructor(private readonly d: SpawnParts) {
    this.spawner = new Spawner({ ...d, provider: providerNamed, failRun: (id, error) => failRun(d, id, error) });
  }

  /**
   * `parentId`: the agent that asked for it (null: the person); it may then act on its child.
   * `work`: a mode run of the work model (src/work/modes.ts): its prompt is the mode's, its input
   * folder gets the mode's files, and `req.prompt` is only the run's one-line label.
   */
  spawn(req: SpawnOptions, parentId: string | null = null, work: SpawnWork | null = null, role: SpawnRole | null = null): Promise<Agent> {
    return this.d.launches.track(this.spawner.spawn(req, parentId, work, role));
  }

  /**
   * The prompt a mode agent spawned now with `work` would get, its id and name shown as
   * PREVIEW_AGENT's (`troupe prompt`): a mode run's worktree is `.troupe/worktrees/<name>`.
   */
  previewModePrompt(work: SpawnWork, providerName: string): ModePrompt {
    const { id, name } = PREVIEW_AGENT;
    const paths = agentPaths(this.d.ws.stateDir, name, worktreePath(this.d.ws.root, name));
    return modePrompt({ id, name, inputDir: paths.inputDir, troupe: this.d.troupe(), provider: providerNamed(providerName), work });
  }

  /** `failed`, with why: a mode run whose outputs cannot be used (src/work/modes.ts). */
  failRun(id: string, error: string): Agent {
    return failRun(this.d, id, error);
  }
}
