import { TroupeError, errorMessage } from "../errors.ts";
import type { SpawnAgent } from "../agents/use-cases/spawn.ts";
import type { SpawnWork } from "../agents/files/input-folder.ts";
import type { EndedRun } from "../agents/lifecycle/run-ends.ts";
import type { ModePrompt } from "../agents/start/mode-prompt.ts";
import type { Logger } from "../events/log.ts";
import type { Store } from "../store/index.ts";
import { SpawnRequestSchema } from "../protocol/api-agents.ts";
import { describeIssue } from "../protocol/issue.ts";
import type { Agent } from "../protocol/entities.ts";
import { MODE_TARGET, type AgentMode, type Initiative, type Phase, type Task } from "../protocol/work.ts";
import type { DecisionStore } from "./decisions.ts";
import { modeInputFiles } from "./input-files.ts";
import { archiveModeOutputs, readModeOutputs, type Decision } from "./proposals.ts";
import type { ModeWork } from "./work-reader.ts";

export interface ModeRunOptions {
  /** Default: generic with a command, else claude. */
  provider?: string;
  model?: string;
  /** A shell command run as the agent (generic provider), the mode's prompt in $TROUPE_PROMPT. */
  command?: string;
  /** The spawning client's environment. */
  env: Record<string, string>;
  /** The agent's spend limit (dispatch: what is left of its initiative's budget). */
  budgetUsd?: number;
  /** How long the run is expected to take (dispatch: the phase's median task), for the account it takes. */
  expectedMs?: number;
}

export interface ModeDeps {
  /** What a mode run needs of the spawn use case: a spawn (and its prompt, previewed), and a failed run when its outputs cannot be used. */
  agents: Pick<SpawnAgent, "spawn" | "failRun" | "previewModePrompt">;
  store: Store;
  log: Logger;
  decisions: DecisionStore;
  /** The work model (the WorkService, through modeWorkOver). */
  work: ModeWork;
}

type Target = { initiative: Initiative; phase?: Phase; task?: Task };

const DETAILABLE: Phase["status"][] = ["approved", "in_progress"];
const EXECUTABLE: Task["status"][] = ["pending", "in_progress", "failed", "blocked"];

/**
 * Starts mode agents (input files + the mode's prompt + a spawn in a worktree of the initiative
 * branch, so they see merged work) and, when one ends `done`, imports what it wrote: phases and
 * tasks to the ProposalSink, decisions to the DecisionStore, a revised goal as a proposal. One
 * malformed file fails the run (the agent `failed`, the error naming the file) and nothing is
 * imported. Each session's outputs are imported once: the store's `mode_imports` holds the
 * sessions imported (a proposal records its session in the transaction that stores it), checked
 * before importing, and a start sweeps `done` runs whose import a crash cut off.
 */
export class ModeService {
  private importing = false;

  constructor(private readonly d: ModeDeps) {}

  /** Imports the outputs of runs that end from now on (see runEnded). */
  startImports(): void {
    this.importing = true;
  }

  /** After the agent runtime's start (which publishes the ends it finds): what is still unimported. */
  sweep(): void {
    for (const rec of this.d.store.agents.list()) {
      if (rec.status === "done" && rec.mode) this.importOnce(rec.id, rec.session);
    }
  }

  shutdown(): void {
    this.importing = false;
  }

  decisions(initiativeRef: string): Decision[] {
    return this.d.decisions.list(this.d.work.initiative(initiativeRef).id);
  }

  /** Resolves `ref` for the mode (an initiative, phase or task), writes its input and spawns its agent. */
  async start(mode: AgentMode, ref: string, opts: ModeRunOptions, parentId: string | null = null): Promise<Agent> {
    const { initiative, phase, task } = this.target(mode, ref, true);
    if (initiative.status !== "active") throw new TroupeError("invalid_state", `initiative ${initiative.slug} is ${initiative.status}`);
    const label = [initiative.slug, phase?.slug, task?.slug].filter(Boolean).join("/");
    const req = SpawnRequestSchema.safeParse({
      provider: opts.provider ?? (opts.command ? "generic" : "claude"),
      command: opts.command,
      model: opts.model,
      prompt: `${mode} ${label}`,
      baseRef: initiative.branch,
      worktree: true,
      env: opts.env,
      budgetUsd: opts.budgetUsd,
      expectedMs: opts.expectedMs,
    });
    if (!req.success) throw new TroupeError("bad_request", describeIssue(req.error, "request"));
    return this.d.agents.spawn(req.data, parentId, this.spawnWork(mode, { initiative, phase, task }));
  }

  /** What a run of `mode` on `ref` gets when a host of the pool runs it (its input files as of now); refused as a start here would be. */
  hosted(mode: AgentMode, ref: string): SpawnWork {
    const target = this.target(mode, ref, true);
    if (target.initiative.status !== "active") throw new TroupeError("invalid_state", `initiative ${target.initiative.slug} is ${target.initiative.status}`);
    return this.spawnWork(mode, target);
  }

  /**
   * The prompt an agent of `mode` on `ref` would get if started now (whatever the target's
   * status), or with no ref a placeholder target whose ids are PLACEHOLDER_IDS.
   */
  prompt(mode: AgentMode, ref: string | null, provider = "claude"): ModePrompt {
    const work = ref === null ? placeholderWork(mode) : this.spawnWork(mode, this.target(mode, ref, false));
    return this.d.agents.previewModePrompt(work, provider);
  }

  /** What the run works on, with its input files as of now. */
  private spawnWork(mode: AgentMode, { initiative, phase, task }: Target): SpawnWork {
    const { work } = this.d;
    const files = modeInputFiles({
      mode,
      initiative,
      phase,
      task,
      phases: work.phases(initiative.id),
      tasks: phase ? work.tasks(phase.id) : [],
      decisions: this.d.decisions.list(initiative.id),
    });
    return { mode, initiativeId: initiative.id, phaseId: phase?.id ?? null, taskId: task?.id ?? null, files };
  }

  /** `startable`: refuse a phase not approved, a task done or under way. */
  private target(mode: AgentMode, ref: string, startable: boolean): Target {
    const { work } = this.d;
    switch (MODE_TARGET[mode]) {
      case "initiative":
        return { initiative: work.initiative(ref) };
      case "phase": {
        const phase = work.phase(ref);
        if (startable && !DETAILABLE.includes(phase.status)) throw new TroupeError("invalid_state", `phase ${phase.slug} is ${phase.status}; only an approved phase is detailed`);
        return { initiative: work.initiative(phase.initiativeId), phase };
      }
      case "task": {
        const task = work.task(ref);
        if (startable && !EXECUTABLE.includes(task.status)) throw new TroupeError("invalid_state", `task ${task.slug} is ${task.status}; it cannot be executed`);
        return { initiative: work.initiative(task.initiativeId), phase: work.phase(task.phaseId), task };
      }
    }
  }

  /**
   * A step of the end-of-run sequence (src/services/end-of-run.ts): a mode run that ended `done`
   * has its outputs imported, or is failed when they cannot be used (before the conversations
   * step, so a run failed by its outputs is not woken for a question).
   */
  runEnded(run: EndedRun): void {
    if (this.importing && run.agent.status === "done") this.importOnce(run.agent.id, run.session);
  }

  /** Imports session `session`'s outputs unless that session is over, not `done`, or imported already. */
  private importOnce(agentId: string, session: number): void {
    const { agents, store, log } = this.d;
    const rec = store.agents.get(agentId);
    // a plain agent, a later session, or a status changed since: nothing to do
    if (!rec?.mode || !rec.initiativeId || rec.status !== "done" || rec.session !== session) return;
    const { mode, initiativeId, phaseId } = rec;
    if (!rec.worktree) {
      // failed first: a failed run is never imported, whether or not the mark below is written
      agents.failRun(agentId, `a ${mode} run needs a worktree to write its outputs in`);
      store.modeImports.add(agentId, session);
      return;
    }
    // imported already (perhaps by a daemon that died before moving the files aside): only move them
    if (!store.modeImports.has(agentId, session)) {
      try {
        this.importOutputs(mode, initiativeId, phaseId, agentId, session, rec.worktree);
        // proposals recorded the session in their own transaction; discuss and execute are marked here
        store.modeImports.add(agentId, session);
      } catch (err) {
        if (!(err instanceof TroupeError) || err.code === "internal") log.error(`importing ${rec.name}'s ${mode} outputs`, err);
        agents.failRun(agentId, `outputs not imported: ${errorMessage(err)}`);
        store.modeImports.add(agentId, session);
        return;
      }
    }
    try {
      archiveModeOutputs(mode, rec.worktree, session);
    } catch (err) {
      log.warn(`moving ${rec.name}'s imported outputs aside`, err);
    }
  }

  private importOutputs(mode: AgentMode, initiativeId: string, phaseId: string | null, agentId: string, session: number, worktree: string): void {
    const { work } = this.d;
    const out = readModeOutputs(mode, worktree);
    switch (out.mode) {
      case "plan":
        if (!out.phases.length) throw new TroupeError("bad_request", "the plan holds no phase: .troupe/output/phases/ has no <slug>.md file");
        work.proposePhases(initiativeId, agentId, out.phases, session);
        return;
      case "detail":
        if (!phaseId) throw new TroupeError("internal", "a detail run without its phase");
        if (!out.tasks.length) throw new TroupeError("bad_request", "the detail holds no task: .troupe/output/tasks/ has no <slug>.md file");
        work.proposeTasks(phaseId, agentId, out.tasks, session);
        return;
      case "discuss":
        this.d.decisions.save(initiativeId, out.decisions);
        return;
      case "refine":
        if (out.goal !== null && out.goal !== work.initiative(initiativeId).goal.trim()) work.proposeGoal(initiativeId, agentId, out.goal, session);
        return;
      case "execute":
        // a task's result is its branch and summary: the dispatcher merges it
        return;
    }
  }
}

/** The ids a placeholder target shows (`troupe prompt` without a ref). */
const PLACEHOLDER_IDS = { initiative: "INITIATIVE_ID", phase: "PHASE_ID", task: "TASK_ID" } as const;

/** A run on a placeholder target: its ids, and the input files every run of the mode has (no context). */
function placeholderWork(mode: AgentMode): SpawnWork {
  const on = MODE_TARGET[mode];
  const phase = on !== "initiative";
  const task = on === "task";
  const files = ["initiative.md", ...(phase ? ["phase.md"] : []), ...(task ? ["task.md"] : [])].map((path) => ({ path, content: "" }));
  return { mode, initiativeId: PLACEHOLDER_IDS.initiative, phaseId: phase ? PLACEHOLDER_IDS.phase : null, taskId: task ? PLACEHOLDER_IDS.task : null, files };
}
