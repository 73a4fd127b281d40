import { TroupeError } from "../errors.ts";
import type { AgentQueries } from "../agents/use-cases/query.ts";
import type { EventBus } from "../events/bus.ts";
import type { EndedRun } from "../agents/lifecycle/run-ends.ts";
import type { Logger } from "../events/log.ts";
import type { PermissionDecision, PermissionFileRequest, PermissionRequest } from "../protocol/permission.ts";
import { isLive } from "../protocol/status.ts";
import { toAgent, type AgentRecord } from "../store/agents.ts";
import type { Store } from "../store/index.ts";
import { permissionSeq, type PermissionRecord, type PermissionVerdict } from "../store/permissions.ts";
import { decideByRules, kindOf, ownCommandRules, suggestRule, type RuleVerdict } from "./rules.ts";

/** The longest one wait request is held; the permission tool asks again (and again) until decided. */
const MAX_PERMISSION_WAIT_MS = 60_000;

/** The public view: the CLI's tool_use id and the session stay in the daemon. */
function toRequest(r: PermissionRecord): PermissionRequest {
  const { session: _s, toolUseId: _t, ...request } = r;
  return request;
}

/** Whether the session that filed `r` is over: the agent ended, moved on to another session, or waits for a retry. */
function sessionOver(agent: AgentRecord, r: PermissionRecord): boolean {
  return !isLive(agent.status) || agent.session !== r.session || agent.retryAt !== null;
}

/** Whether the agent waits for the person on a permission request (its inactivity clock stops meanwhile). */
export function awaitsPermission(store: Store, agentId: string): boolean {
  return store.permissions.list({ pending: true, agentId }).length > 0;
}

/**
 * troupe's own tools (mcp__troupe__*) and the agent's own commands (`troupe signal`, `ask`, ...:
 * AGENT_OWN_COMMANDS) under `ask`: what an agent
 * does with them is authorized by the daemon's policy table already, and asking the person
 * whether an agent may signal its end or read its inbox would only get in the way. A deny rule
 * still wins over these.
 */
const OWN_TOOLS = "mcp__troupe__*";

/**
 * Permission requests (issue 12): a tool call an agent under `ask` may not make alone. The agent's
 * permission tool files it (`file`), the rules decide it at once or it waits for the person
 * (`decide`), and the tool long-polls (`wait`). Nothing is answered by accident: only the person,
 * a rule or the end of the agent's session decides a request, and a decided one stays decided.
 */
export class PermissionService {
  /** Between start and shutdown: the sequences' steps act only then. */
  private started = false;

  constructor(
    private readonly d: { store: Store; bus: EventBus; log: Logger; agents: Pick<AgentQueries, "rulesOf" | "troupeCommand"> },
  ) {}

  /** Cancels what sessions ended while no daemon ran; after that the sequences' steps cancel (runEnded, sessionOver). */
  start(): void {
    this.started = true;
    for (const r of this.d.store.permissions.list({ pending: true })) {
      const agent = this.d.store.agents.get(r.agentId);
      if (!agent || sessionOver(agent, r)) this.cancel(r, agent);
    }
  }

  shutdown(): void {
    this.started = false;
  }

  /** A step of the end-of-run sequence (src/services/end-of-run.ts): the run's pending requests are cancelled. */
  runEnded(run: EndedRun): void {
    if (this.started) this.cancelOver(run.agent.id);
  }

  /** A step of the stop and retry sequences: a session over (stopped, failed with a retry to come) takes its pending requests with it. */
  sessionOver(agentId: string): void {
    if (this.started) this.cancelOver(agentId);
  }

  private cancelOver(agentId: string): void {
    for (const r of this.d.store.permissions.list({ pending: true, agentId })) {
      const agent = this.d.store.agents.get(r.agentId);
      if (!agent || sessionOver(agent, r)) this.cancel(r, agent);
    }
  }

  private cancel(r: PermissionRecord, agent: AgentRecord | null): void {
    const done = this.d.store.permissions.decide(permissionSeq(r.id)!, { status: "cancelled", decidedBy: "ended" });
    if (done) this.published(done, false, agent);
  }

  private published(r: PermissionRecord, created: boolean, agent: AgentRecord | null): PermissionRequest {
    const request = toRequest(r);
    this.d.bus.publish(created ? { type: "permission:created", request } : { type: "permission:updated", request });
    // the agent's pendingPermissions changed with it (counted as its row is read)
    const now = agent ? this.d.store.agents.get(agent.id) : null;
    if (now) this.d.bus.publish({ type: "agent:updated", agent: toAgent(now) });
    return request;
  }

  /**
   * The calling agent's tool call: decided at once by its rules (and logged), or filed for the
   * person. The same tool_use id again returns what was filed the first time.
   */
  file(agent: AgentRecord, req: PermissionFileRequest): PermissionRequest {
    // a stopped agent's process may still be going away: nothing it asks then can reach the person
    if (!isLive(agent.status) || agent.retryAt !== null) throw new TroupeError("conflict", `${agent.name} is ${agent.status}: its session has ended, so it cannot ask for a permission`);
    const verdict = this.byRules(agent, req.toolName, req.input);
    const decided: PermissionVerdict | null =
      verdict === null
        ? null
        : verdict.behavior === "allow"
          ? { status: "allowed", decidedBy: "rule", rule: verdict.rule, updatedInput: null }
          : { status: "denied", decidedBy: "rule", rule: verdict.rule, reason: `denied by the rule ${verdict.rule}` };
    const { record, created } = this.d.store.permissions.insert(
      { agentId: agent.id, agentName: agent.name, session: agent.session, toolUseId: req.toolUseId, kind: kindOf(req.toolName), toolName: req.toolName, input: req.input },
      decided,
    );
    if (!created) return toRequest(record);
    if (decided) this.d.log.info(`${agent.name}: ${req.toolName} ${decided.status} by the rule ${verdict!.rule} (${record.id})`);
    return this.published(record, true, decided ? null : agent);
  }

  private byRules(agent: AgentRecord, toolName: string, input: Record<string, unknown>): RuleVerdict {
    const { allowedTools, deniedTools } = this.d.agents.rulesOf(agent);
    const own = [OWN_TOOLS, ...ownCommandRules(this.d.agents.troupeCommand())];
    return decideByRules({ allow: [...allowedTools, ...own], deny: deniedTools }, toolName, input, agent.worktree ?? agent.cwd);
  }

  get(id: string): PermissionRequest {
    return toRequest(this.record(id));
  }

  private record(id: string): PermissionRecord {
    const seq = permissionSeq(id);
    const r = seq === null ? null : this.d.store.permissions.get(seq);
    if (!r) throw new TroupeError("not_found", `no permission request '${id}'`);
    return r;
  }

  list(q: { pending?: boolean }): PermissionRequest[] {
    return this.d.store.permissions.list(q).map(toRequest);
  }

  /** The request once decided, or as it is when `waitMs` (at most a minute) runs out. */
  async wait(id: string, waitMs: number, signal: AbortSignal): Promise<PermissionRequest> {
    const now = this.record(id);
    if (now.status !== "pending" || waitMs <= 0) return toRequest(now);
    // subscribed in the same turn as the read above: a decision in between cannot be missed
    const done = await this.d.bus.waitFor(
      ({ event: e }) => (e.type === "permission:updated" && e.request.id === id && e.request.status !== "pending" ? e.request : null),
      Math.min(waitMs, MAX_PERMISSION_WAIT_MS),
      signal,
    );
    return done ?? this.get(id);
  }

  /** The person's choice. A request already decided, or whose agent's session ended, is a conflict. */
  decide(id: string, decision: PermissionDecision): PermissionRequest {
    const r = this.record(id);
    if (r.status !== "pending") {
      const how = r.status === "cancelled" ? "cancelled: its agent's session ended" : `already ${r.status} (by ${r.decidedBy === "rule" ? `the rule ${r.rule}` : "the person"})`;
      throw new TroupeError("conflict", `${id} was ${how}`);
    }
    const agent = this.d.store.agents.get(r.agentId);
    if (!agent || sessionOver(agent, r)) {
      this.cancel(r, agent);
      throw new TroupeError("conflict", `${id} was cancelled: ${r.agentName}'s session that asked has ended`);
    }
    let verdict: PermissionVerdict;
    if (decision.behavior === "allow") {
      const rule = decision.always ? suggestRule(r.toolName, r.input, agent.worktree ?? agent.cwd) : null;
      verdict = { status: "allowed", decidedBy: "person", rule, updatedInput: decision.updatedInput ?? null };
    } else {
      verdict = { status: "denied", decidedBy: "person", rule: null, reason: decision.reason };
    }
    const done = this.d.store.permissions.decide(permissionSeq(id)!, verdict);
    // decided in between by someone else (a second dashboard): the same refusal as above
    if (!done) return this.decide(id, decision);
    if (verdict.status === "allowed" && verdict.rule) {
      this.d.store.permissions.addRules(agent.id, "allow", [verdict.rule], "always");
      this.d.log.info(`${agent.name}: allowed always ${verdict.rule} (${id})`);
    }
    return this.published(done, false, agent);
  }
}
