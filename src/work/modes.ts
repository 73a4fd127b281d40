import { TroupeError, errorMessage } from "../errors.ts";
import type { AgentService } from "../agents/service.ts";
import type { SpawnWork } from "../agents/input.ts";
import type { EventBus, Published } from "../events/bus.ts";
import type { Logger } from "../events/log.ts";
import type { Store } from "../store/index.ts";
import { SpawnRequestSchema } from "../protocol/api-agents.ts";
import { describeIssue } from "../protocol/issue.ts";
import type { Agent } from "../protocol/entities.ts";
import type { AgentMode, Initiative, Phase, Task } from "../protocol/work.ts";
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
}

export interface ModeDeps {
  agents: AgentService;
  store: Store;
  bus: EventBus;
  log: Logger;
  decisions: DecisionStore;
  /** The work model (work-core's WorkService); null until it is wired: mode runs are then refused. */
  work: ModeWork | null;
}

/** What each mode works on: discuss, plan and refine an initiative, detail a phase, execute a task. */
export const MODE_TARGET: Record<AgentMode, "initiative" | "phase" | "task"> = {
  discuss: "initiative",
  plan: "initiative",
  refine: "initiative",
  detail: "phase",
  execute: "task",
};

const DETAILABLE: Phase["status"][] = ["approved", "in_progress"];
const EXECUTABLE: Task["status"][] = ["pending", "in_progress", "failed", "blocked"];

/**
 * Starts mode agents (input files + the mode's prompt + a spawn in a worktree of the initiative
 * branch, so they see merged work) and, when one ends `done`, imports what it wrote: phases and
 * tasks to the ProposalSink, decisions to the DecisionStore, a revised goal as a proposal. One
 * malformed file fails the run (the agent `failed`, the error naming the file) and nothing is
 * imported. Each session's outputs are imported once: the import is marked in the agent's work
 * record, checked before importing, and a start sweeps `done` runs whose import a crash cut off.
 */
export class ModeService {
  private off: (() => void) | null = null;

  constructor(private readonly d: ModeDeps) {}

  /** Subscribe before the conversations follower: an import that fails the run stops it waking the agent. */
  subscribe(): void {
    this.off = this.d.bus.subscribe((p) => this.on(p));
  }

  /** After the agent service's start (which publishes the ends it finds): what is still unimported. */
  sweep(): void {
    for (const rec of this.d.store.agents.list()) {
      if (rec.status === "done") this.importOnce(rec.id, rec.session);
    }
  }

  shutdown(): void {
    this.off?.();
  }

  decisions(initiativeRef: string): Decision[] {
    return this.d.decisions.list(this.work().initiative(initiativeRef).id);
  }

  /** Resolves `ref` for the mode (an initiative, phase or task), writes its input and spawns its agent. */
  async start(mode: AgentMode, ref: string, opts: ModeRunOptions, parentId: string | null = null): Promise<Agent> {
    const work = this.work();
    const { initiative, phase, task } = this.target(work, mode, ref);
    if (initiative.status !== "active") throw new TroupeError("invalid_state", `initiative ${initiative.slug} is ${initiative.status}`);
    const phases = work.phases(initiative.id);
    const input = modeInputFiles({
      mode,
      initiative,
      phase,
      task,
      phases,
      tasks: phase ? work.tasks(phase.id) : [],
      decisions: this.d.decisions.list(initiative.id),
    });
    const label = [initiative.slug, phase?.slug, task?.slug].filter(Boolean).join("/");
    const req = SpawnRequestSchema.safeParse({
      provider: opts.provider ?? (opts.command ? "generic" : "claude"),
      command: opts.command,
      model: opts.model,
      prompt: `${mode} ${label}`,
      baseRef: initiative.branch,
      worktree: true,
      env: opts.env,
    });
    if (!req.success) throw new TroupeError("bad_request", describeIssue(req.error, "request"));
    const spawnWork: SpawnWork = { mode, initiativeId: initiative.id, phaseId: phase?.id ?? null, taskId: task?.id ?? null, files: input };
    return this.d.agents.spawn(req.data, parentId, spawnWork);
  }

  private work(): ModeWork {
    if (!this.d.work) throw new TroupeError("invalid_state", "this daemon has no work model (initiatives, phases, tasks) to run modes on");
    return this.d.work;
  }

  private target(work: ModeWork, mode: AgentMode, ref: string): { initiative: Initiative; phase?: Phase; task?: Task } {
    switch (MODE_TARGET[mode]) {
      case "initiative":
        return { initiative: work.initiative(ref) };
      case "phase": {
        const phase = work.phase(ref);
        if (!DETAILABLE.includes(phase.status)) throw new TroupeError("invalid_state", `phase ${phase.slug} is ${phase.status}; only an approved phase is detailed`);
        return { initiative: work.initiative(phase.initiativeId), phase };
      }
      case "task": {
        const task = work.task(ref);
        if (!EXECUTABLE.includes(task.status)) throw new TroupeError("invalid_state", `task ${task.slug} is ${task.status}; it cannot be executed`);
        return { initiative: work.initiative(task.initiativeId), phase: work.phase(task.phaseId), task };
      }
    }
  }

  private on({ event: e }: Published): void {
    if (e.type === "agent:ended" && e.agent.status === "done") this.importOnce(e.agent.id, e.session);
  }

  /** Imports session `session`'s outputs unless that session is over, not `done`, or imported already. */
  private importOnce(agentId: string, session: number): void {
    const { agents, store, log } = this.d;
    const rec = store.agents.get(agentId);
    const record = agents.workOf(agentId);
    // a later session, a status changed since, or an import done already: nothing to do
    if (!rec || !record || rec.status !== "done" || rec.session !== session || record.importedSession >= session) return;
    if (!this.d.work) {
      log.warn(`${rec.name} ended ${record.mode} run; its outputs wait for the work model to be imported`);
      return;
    }
    if (!rec.worktree) {
      agents.markImported(agentId, session);
      agents.failRun(agentId, `a ${record.mode} run needs a worktree to write its outputs in`);
      return;
    }
    try {
      this.importOutputs(this.d.work, record.mode, record.initiativeId, record.phaseId, agentId, rec.worktree);
      agents.markImported(agentId, session);
    } catch (err) {
      agents.markImported(agentId, session);
      if (!(err instanceof TroupeError) || err.code === "internal") log.error(`importing ${rec.name}'s ${record.mode} outputs`, err);
      agents.failRun(agentId, `outputs not imported: ${errorMessage(err)}`);
      return;
    }
    try {
      archiveModeOutputs(record.mode, rec.worktree, session);
    } catch (err) {
      log.warn(`moving ${rec.name}'s imported outputs aside`, err);
    }
  }

  private importOutputs(work: ModeWork, mode: AgentMode, initiativeId: string, phaseId: string | null, agentId: string, worktree: string): void {
    const out = readModeOutputs(mode, worktree);
    switch (out.mode) {
      case "plan":
        if (!out.phases.length) throw new TroupeError("bad_request", "the plan holds no phase: .troupe/output/phases/ has no <slug>.md file");
        work.proposePhases(initiativeId, agentId, out.phases);
        return;
      case "detail":
        if (!phaseId) throw new TroupeError("internal", "a detail run without its phase");
        if (!out.tasks.length) throw new TroupeError("bad_request", "the detail holds no task: .troupe/output/tasks/ has no <slug>.md file");
        work.proposeTasks(phaseId, agentId, out.tasks);
        return;
      case "discuss":
        this.d.decisions.save(initiativeId, out.decisions);
        return;
      case "refine":
        if (out.goal !== null && out.goal !== work.initiative(initiativeId).goal.trim()) work.proposeGoal(initiativeId, agentId, out.goal);
        return;
      case "execute":
        // a task's result is its branch and summary: the dispatcher merges it
        return;
    }
  }
}
