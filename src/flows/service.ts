import { TroupeError, errorMessage } from "../errors.ts";
import type { SpawnAgent } from "../agents/use-cases/spawn.ts";
import { newId } from "../agents/tokens.ts";
import type { Logger } from "../events/log.ts";
import type { Store } from "../store/index.ts";
import type { ProfileCatalog } from "../profiles/catalog.ts";
import { resolveSpawn } from "../profiles/resolve.ts";
import { SpawnRequestSchema } from "../protocol/api-agents.ts";
import type { Flow, FlowAddRequestSchema, FlowRunResult } from "../protocol/flow.ts";
import { isLive } from "../protocol/status.ts";
import { describeIssue } from "../protocol/issue.ts";
import { getProvider } from "../../providers/index.ts";
import type { z } from "zod";
import { FlowEnvFiles } from "./env-file.ts";
import { fillPrompt, runGate } from "./gate.ts";
import { checkCron, nextRun } from "./schedule.ts";

export type FlowAddOptions = z.output<typeof FlowAddRequestSchema>;

export interface FlowDeps {
  root: string;
  stateDir: string;
  store: Store;
  log: Logger;
  agents: Pick<SpawnAgent, "spawn">;
  profiles: ProfileCatalog;
}

/** setTimeout takes at most 2^31-1 ms (~24.8 days); a later time is reached by re-arming. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Scheduled flows. One timer, at the nearest time an enabled flow is due (no polling). A flow due
 * while no daemon ran (its stored next time has passed) runs once at the next start, however many
 * times it missed; its next time is then computed from now. Two runs of one flow never overlap:
 * while its last agent is live, a run is skipped and the skip recorded.
 */
export class FlowService {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly envs: FlowEnvFiles;
  /** Flows whose run is being started (the gate, the spawn): a second one is an overlap too. */
  private readonly starting = new Set<string>();
  private stopped = false;

  constructor(private readonly d: FlowDeps) {
    this.envs = new FlowEnvFiles(d.stateDir);
  }

  list(): Flow[] {
    return this.d.store.flows.list();
  }

  get(ref: string): Flow {
    const f = this.d.store.flows.find(ref);
    if (!f) throw new TroupeError("not_found", `no flow '${ref}' (see 'troupe flow ls')`);
    return f;
  }

  add(req: FlowAddOptions): Flow {
    checkCron(req.cron);
    if (this.d.store.flows.find(req.name)) throw new TroupeError("conflict", `a flow named '${req.name}' exists`);
    if (req.profile) this.d.profiles.get(req.profile);
    if (req.provider && !getProvider(req.provider)) throw new TroupeError("provider_unknown", `unknown provider '${req.provider}' (see 'troupe providers')`);
    const id = newId("fl");
    this.envs.save(id, req.env);
    const flow = this.d.store.flows.insert({
      id,
      name: req.name,
      cron: req.cron,
      profile: req.profile ?? null,
      provider: req.provider ?? null,
      prompt: req.prompt,
      gate: req.gate ?? null,
      nextRunAt: nextRun(req.cron, new Date()),
    });
    this.arm();
    return flow;
  }

  remove(ref: string): void {
    const f = this.get(ref);
    this.d.store.flows.remove(f.id);
    this.envs.remove(f.id);
    this.arm();
  }

  setEnabled(ref: string, enabled: boolean): Flow {
    const f = this.get(ref);
    const flow = this.d.store.flows.setEnabled(f.id, enabled, enabled ? nextRun(f.cron, new Date()) : null);
    this.arm();
    return flow;
  }

  /** Runs a flow now (its schedule is unchanged), with its gate and the overlap rule. */
  run(ref: string): Promise<FlowRunResult> {
    return this.runFlow(this.get(ref));
  }

  /** Runs what fell due while no daemon ran (once each), then arms the timer. */
  start(): void {
    this.tick();
  }

  shutdown(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Whether an enabled flow keeps the daemon from its idle exit. */
  anyEnabled(): boolean {
    return this.d.store.flows.anyEnabled();
  }

  private tick(): void {
    const now = Date.now();
    for (const f of this.d.store.flows.list()) {
      if (!f.enabled || f.nextRunAt === null || f.nextRunAt > now) continue;
      // the next time first: a run that throws or a daemon that dies mid-run does not repeat it
      this.d.store.flows.setNext(f.id, nextRun(f.cron, new Date(now)));
      this.runFlow(f).catch((err) => this.d.log.error(`flow ${f.name}`, err));
    }
    this.arm();
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.stopped) return;
    const due = this.d.store.flows
      .list()
      .filter((f) => f.enabled && f.nextRunAt !== null)
      .map((f) => f.nextRunAt!);
    if (!due.length) return;
    const delay = Math.min(Math.max(0, Math.min(...due) - Date.now()), MAX_DELAY_MS);
    this.timer = setTimeout(() => this.tick(), delay);
  }

  private async runFlow(f: Flow): Promise<FlowRunResult> {
    const at = Date.now();
    const done = (outcome: string, agentId: string | null = null): FlowRunResult => {
      this.d.log.info(`flow ${f.name}: ${outcome}`);
      return { flow: this.d.store.flows.recordRun(f.id, at, outcome, agentId), outcome, agentId };
    };
    const last = f.lastAgentId ? this.d.store.agents.get(f.lastAgentId) : null;
    if (last && isLive(last.status)) return done(`skipped: its previous run ${last.name} is still ${last.status}`);
    if (this.starting.has(f.id)) return done("skipped: its previous run is still starting");
    this.starting.add(f.id);
    try {
      const env = this.envs.load(f.id, f.name);
      let prompt = f.prompt;
      if (f.gate) {
        const decision = await runGate(f.gate, this.d.root, env);
        if (!decision.run) return done("skipped by its gate");
        prompt = fillPrompt(prompt, decision.vars);
      }
      // a gate's values may hold what no process argument can (a NUL): one line, as for any spawn
      const parsed = SpawnRequestSchema.safeParse({ provider: f.provider ?? undefined, profile: f.profile ?? undefined, prompt, env, worktree: true });
      if (!parsed.success) throw new TroupeError("bad_request", describeIssue(parsed.error, "request"));
      const r = resolveSpawn(this.d.profiles, parsed.data);
      // the person added the flow: its agents are theirs (no parent)
      const agent = await this.d.agents.spawn(r.req, null, null, r.role);
      return done(`started ${agent.name}`, agent.id);
    } catch (err) {
      return done(`failed: ${errorMessage(err)}`);
    } finally {
      this.starting.delete(f.id);
    }
  }
}
