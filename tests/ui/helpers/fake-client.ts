import type { EventMessage } from "../../../src/client/sse.ts";
import { TroupeError } from "../../../src/errors.ts";
import type { Health, ResumeRequest, SpawnRequest } from "../../../src/protocol/api.ts";
import { AgentSchema, type Agent, type Conversation } from "../../../src/protocol/entities.ts";
import { nulls } from "../../support/nulls.ts";
import type { DaemonEvent } from "../../../src/protocol/events.ts";
import type { Message } from "../../../src/protocol/message.ts";
import type { SendRequest } from "../../../src/protocol/api-messages.ts";
import type { OutputChunk } from "../../../src/protocol/output.ts";
import type { ApproveRequest, EditRequest, RejectRequest, WorkItems } from "../../../src/protocol/api-work.ts";
import type { Initiative, Phase, Task } from "../../../src/protocol/work.ts";
import type { DashboardClient } from "../../../src/ui/mirror/deps.ts";
import type { Profile, ProfilesResponse } from "../../../src/protocol/profile.ts";
import type { PermissionDecision, PermissionKind, PermissionRequest, PermissionStatus } from "../../../src/protocol/permission.ts";
import type { Flow, FlowRunResult } from "../../../src/protocol/flow.ts";
import type { AddCommentRequest, Review, ReviewComment, SentReview } from "../../../src/protocol/review.ts";
import type { PoolHost } from "../../../src/protocol/host.ts";
import type { PullRequest, PullRequestRequestSchema } from "../../../src/protocol/api-publish.ts";
import type { z } from "zod";

type PullRequestRequest = z.input<typeof PullRequestRequestSchema>;

let seq = 0;

export function makeAgent(over: Partial<Agent> = {}): Agent {
  const n = ++seq;
  const now = Date.now();
  return {
    ...nulls(AgentSchema),
    id: `a${n}`,
    name: `agent-${n}`,
    provider: "generic",
    status: "running",
    command: `echo ${n}`,
    permissions: "skip",
    cwd: "/tmp/ws",
    pid: 100 + n,
    session: 1,
    uncommitted: false,
    attempt: 1,
    pendingPermissions: 0,
    ports: [],
    createdAt: now - 60_000,
    updatedAt: now,
    ...over,
  };
}

export function makeFlow(over: Partial<Flow> = {}): Flow {
  const n = ++seq;
  return {
    id: `fl${n}`,
    name: `flow-${n}`,
    cron: "0 3 * * *",
    profile: null,
    provider: "generic",
    prompt: `prompt ${n}`,
    gate: null,
    enabled: true,
    nextRunAt: Date.now() + 3_600_000,
    lastRunAt: null,
    lastAgentId: null,
    lastOutcome: null,
    createdAt: Date.now() - 86_400_000,
    ...over,
  };
}

export function makeConversation(over: Partial<Conversation> = {}): Conversation {
  const n = ++seq;
  return {
    id: `c${n}`,
    fromId: "a1",
    fromName: "agent-1",
    toId: "user",
    toName: "user",
    question: `question ${n}?`,
    answer: null,
    answeredBy: null,
    status: "pending",
    taskId: null,
    phaseId: null,
    createdAt: Date.now(),
    expiresAt: null,
    answeredAt: null,
    ...over,
  };
}

export function makeInitiative(over: Partial<Initiative> = {}): Initiative {
  const n = ++seq;
  const slug = over.slug ?? `init-${n}`;
  return {
    id: `in_${n}`,
    name: slug,
    slug,
    goal: `the goal of ${slug}`,
    proposedGoal: null,
    status: "active",
    baseRef: "main",
    baseCommit: "0".repeat(40),
    branch: `troupe-initiative/${slug}`,
    review: "phases",
    dispatch: null,
    budgetUsd: null,
    spentUsd: 0,
    reason: null,
    permissions: null,
    prUrl: null,
    version: 1,
    createdAt: n,
    updatedAt: n,
    ...over,
  };
}

export function makePhase(initiative: Initiative, over: Partial<Phase> = {}): Phase {
  const n = ++seq;
  const slug = over.slug ?? `phase-${n}`;
  return {
    id: `ph_${n}`,
    initiativeId: initiative.id,
    slug,
    title: `Phase ${slug}`,
    content: `What ${slug} does.`,
    status: "proposed",
    dependsOn: [],
    proposedBy: null,
    reason: null,
    pin: null,
    version: 1,
    createdAt: n,
    updatedAt: n,
    ...over,
  };
}

export function makeTask(phase: Phase, over: Partial<Task> = {}): Task {
  const n = ++seq;
  const slug = over.slug ?? `task-${n}`;
  return {
    id: `tk_${n}`,
    initiativeId: phase.initiativeId,
    phaseId: phase.id,
    slug,
    title: `Task ${slug}`,
    description: `How to do ${slug}.`,
    status: "pending",
    dependsOn: [],
    proposedBy: null,
    agentId: null,
    branch: null,
    summary: null,
    reason: null,
    conflicts: null,
    files: null,
    waiting: null,
    host: null,
    placement: null,
    pin: null,
    lostRuns: [],
    mergedAt: null,
    version: 1,
    createdAt: n,
    updatedAt: n,
    ...over,
  };
}

type Call = { method: string; args: unknown[] };

/** An endpoint a test does not fake fails the test when called, naming it (the dashboard's client is the whole API table). */
function unfaked<T extends object>(fake: T): T {
  return new Proxy(fake, {
    get(target, key, receiver) {
      if (typeof key !== "string" || key in target || key === "then") return Reflect.get(target, key, receiver);
      return () => Promise.reject(new Error(`FakeClient: ${key} is not faked`));
    },
  });
}

// the class has the whole client's type; what it does not define is unfaked() at run time
export interface FakeClient extends DashboardClient {}

/**
 * An in-memory daemon behind the dashboard's client interface: state to read, events to push,
 * and a record of every action the dashboard took.
 */
export class FakeClient {
  agents = new Map<string, Agent>();
  conversationsById = new Map<string, Conversation>();
  chunks: OutputChunk[] = [];
  initiativesById = new Map<string, Initiative>();
  phasesById = new Map<string, Phase>();
  tasksById = new Map<string, Task>();
  diffs = new Map<string, string>();
  flowsByName = new Map<string, Flow>();
  calls: Call[] = [];
  up = true;
  pid = 4242;
  private nextEventId = 1;
  private nextChunkId = 1;
  private subscribers = new Set<(m: EventMessage | null) => void>();
  /** Makes the next action of that name fail with this error. */
  failNext = new Map<string, Error>();

  constructor(agents: Agent[] = [], conversations: Conversation[] = []) {
    for (const a of agents) this.agents.set(a.id, a);
    for (const c of conversations) this.conversationsById.set(c.id, c);
    return unfaked(this);
  }

  private check(method: string, args: unknown[]): void {
    this.calls.push({ method, args });
    if (!this.up) throw new TroupeError("daemon_unavailable", "no daemon answers on /fake.sock");
    const fail = this.failNext.get(method);
    if (fail) {
      this.failNext.delete(method);
      throw fail;
    }
  }

  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  async health(): Promise<Health> {
    this.check("health", []);
    return { ok: true, pid: this.pid, version: "test", workspace: "/tmp/ws", startedAt: 1 };
  }
  async stopDaemon(): Promise<void> {}
  /** What `profiles()` answers: the new-agent dialog offers them beside the providers. */
  profileList: Profile[] = [];
  async profiles(): Promise<ProfilesResponse> {
    this.check("profiles", []);
    return { profiles: this.profileList, broken: [], shadowed: [] };
  }
  async listAgents(): Promise<Agent[]> {
    this.check("listAgents", []);
    return [...this.agents.values()];
  }
  async conversations(q: { pending?: boolean } = {}): Promise<Conversation[]> {
    this.check("conversations", [q]);
    return [...this.conversationsById.values()].filter((c) => !q.pending || c.status === "pending" || c.status === "delivered");
  }
  async output(ref: string, q: { after?: number; before?: number; session?: number; limit?: number } = {}): Promise<OutputChunk[]> {
    this.check("output", [ref, q]);
    const mine = this.chunks.filter((c) => c.agentId === ref);
    // Like the daemon's store: at most `limit` chunks and about 64 KiB a page, oldest first;
    // with `before`, the newest ones below it. An empty page is the end.
    const backwards = q.before !== undefined;
    const all = backwards ? mine.filter((c) => c.id < q.before!).reverse() : mine.filter((c) => c.id > (q.after ?? 0));
    const page: OutputChunk[] = [];
    let bytes = 0;
    for (const c of all.slice(0, q.limit ?? 10_000)) {
      page.push(c);
      bytes += c.data.length;
      if (bytes >= 64 * 1024) break;
    }
    return backwards ? page.reverse() : page;
  }
  async spawn(req: SpawnRequest): Promise<Agent> {
    this.check("spawn", [req]);
    const a = makeAgent({ name: req.name ?? `new-${seq}`, provider: req.provider ?? "generic", prompt: req.prompt ?? null, command: req.command ?? null, status: "starting" });
    this.setAgent(a, "agent:created");
    return a;
  }
  async stop(ref: string): Promise<Agent> {
    this.check("stop", [ref]);
    return this.update(ref, { status: "stopped", pid: null });
  }
  /** Push and pull request: the URL kept on the agent, as the daemon does (its agent:updated). */
  async pullRequest(ref: string, req: PullRequestRequest): Promise<PullRequest> {
    this.check("pullRequest", [ref, req]);
    const a = this.agents.get(ref)!;
    const url = `https://github.com/acme/app/pull/${a.prUrl ? /(\d+)$/.exec(a.prUrl)![1] : "7"}`;
    const created = !a.prUrl;
    this.update(ref, { prUrl: url });
    const push = { remote: "origin", branch: a.branch ?? "", commit: "c0ffee".repeat(6) + "abcd", url: "git@github.com:acme/app.git" };
    return { url, number: Number(/(\d+)$/.exec(url)![1]), created, via: "api", base: "main", push };
  }
  /** The agent as it is (the fake's stop is immediate: nothing to wait for). */
  async waitAgent(ref: string, _q?: { wait?: number }): Promise<Agent> {
    this.check("waitAgent", [ref]);
    return this.agents.get(ref)!;
  }
  async resume(ref: string, req: ResumeRequest): Promise<Agent> {
    this.check("resume", [ref, req]);
    const a = this.agents.get(ref)!;
    return this.update(ref, { status: "running", questions: null, session: a.session + 1 });
  }
  async answer(id: string, { answer }: { answer: string }): Promise<Conversation> {
    this.check("answer", [id, answer]);
    const c = { ...this.conversationsById.get(id)!, status: "answered" as const, answer, answeredBy: "user", answeredAt: Date.now() };
    this.conversationsById.set(id, c);
    this.emit({ type: "conversation:updated", conversation: c });
    return c;
  }

  messagesById = new Map<string, Message>();
  /** A message to the person, as `troupe send --user` from `from` stores it (and publishes it). */
  addMessage(from: Agent, text: string): Message {
    const n = ++seq;
    const m: Message = { id: `msg_${n}`, seq: n, fromId: from.id, fromName: from.name, toId: "user", toName: "user", text, status: "queued", createdAt: Date.now(), deliveredAt: null };
    this.messagesById.set(m.id, m);
    this.emit({ type: "message:created", message: m });
    return m;
  }
  async messages(q?: { to?: string; unread?: boolean }): Promise<Message[]> {
    this.check("messages", [q]);
    return [...this.messagesById.values()].filter((m) => m.toId === "user" && m.status !== "read");
  }
  async markRead(id: string): Promise<Message> {
    this.check("markRead", [id]);
    const m: Message = { ...this.messagesById.get(id)!, status: "read" };
    this.messagesById.set(id, m);
    this.emit({ type: "message:updated", message: m });
    return m;
  }
  async send(req: SendRequest): Promise<Message[]> {
    this.check("send", [req]);
    const to = this.agents.get(req.to);
    const n = ++seq;
    return [{ id: `msg_${n}`, seq: n, fromId: "user", fromName: "user", toId: req.to, toName: to?.name ?? req.to, text: req.text, status: "queued", createdAt: Date.now(), deliveredAt: null }];
  }

  /** Each agent's pending review, as the daemon keeps it; every comment stays where it was made. */
  reviews = new Map<string, ReviewComment[]>();
  private nextComment = 1;
  async review(ref: string): Promise<Review> {
    this.check("review", [ref]);
    const a = this.agents.get(ref)!;
    return { agentId: a.id, agentName: a.name, comments: [...(this.reviews.get(a.id) ?? [])] };
  }
  async addReviewComment(ref: string, req: AddCommentRequest): Promise<ReviewComment> {
    this.check("addReviewComment", [ref, req]);
    const side = req.side ?? "new";
    const c: ReviewComment = {
      id: `rc_${this.nextComment++}`,
      agentId: ref,
      file: req.file,
      side,
      line: req.line,
      section: req.section ?? null,
      code: req.code ?? "",
      text: req.text,
      createdAt: 1,
      updatedAt: 1,
      state: "current",
      at: { section: req.section ?? null, line: req.line },
    };
    this.reviews.set(ref, [...(this.reviews.get(ref) ?? []), c]);
    return c;
  }
  async editReviewComment(id: string, req: { text: string }): Promise<ReviewComment> {
    this.check("editReviewComment", [id, req]);
    for (const [agent, cs] of this.reviews) {
      const c = cs.find((x) => x.id === id);
      if (!c) continue;
      const edited = { ...c, text: req.text };
      this.reviews.set(agent, cs.map((x) => (x.id === id ? edited : x)));
      return edited;
    }
    throw new TroupeError("not_found", `no pending review comment '${id}'`);
  }
  async deleteReviewComment(id: string): Promise<void> {
    this.check("deleteReviewComment", [id]);
    for (const [agent, cs] of this.reviews) this.reviews.set(agent, cs.filter((x) => x.id !== id));
  }
  async sendReview(ref: string, req: { message?: string } = {}): Promise<SentReview> {
    this.check("sendReview", [ref, req]);
    const cs = this.reviews.get(ref) ?? [];
    if (!cs.length) throw new TroupeError("bad_request", "no pending review");
    this.reviews.delete(ref);
    const agent = this.agents.get(ref)!;
    const [message] = await this.send({ to: ref, text: cs.map((c) => `${c.file}:${c.line} ${c.text}`).join("\n") });
    return { message: message!, comments: cs.length, delivery: "resumed", note: `resumed ${agent.name} with the review`, agent };
  }

  permissionsById = new Map<string, PermissionRequest>();
  private nextPermission = 1;
  /** A tool call `agent` asks the person about, as the daemon files it (and publishes it). */
  addPermission(agent: Agent, toolName: string, input: Record<string, unknown>, kind: PermissionKind = "tool"): PermissionRequest {
    const r: PermissionRequest = {
      id: `perm_${this.nextPermission++}`,
      agentId: agent.id,
      agentName: agent.name,
      kind,
      toolName,
      input,
      status: "pending",
      decidedBy: null,
      rule: null,
      reason: null,
      updatedInput: null,
      createdAt: Date.now(),
      decidedAt: null,
    };
    this.permissionsById.set(r.id, r);
    this.emit({ type: "permission:created", request: r });
    return r;
  }
  /** Settles a request without the dashboard (another dashboard, the CLI, the agent's end). */
  settlePermission(id: string, status: Exclude<PermissionStatus, "pending">, decidedBy: PermissionRequest["decidedBy"]): PermissionRequest {
    const r = { ...this.permissionsById.get(id)!, status, decidedBy, decidedAt: Date.now() };
    this.permissionsById.set(id, r);
    this.emit({ type: "permission:updated", request: r });
    return r;
  }
  async permissions(q: { pending?: boolean } = {}): Promise<PermissionRequest[]> {
    this.check("permissions", [q]);
    return [...this.permissionsById.values()].filter((r) => !q.pending || r.status === "pending");
  }
  async decidePermission(id: string, d: PermissionDecision): Promise<PermissionRequest> {
    this.check("decidePermission", [id, d]);
    const r = this.permissionsById.get(id);
    if (!r) throw new TroupeError("not_found", `no permission request ${id}`);
    if (r.status !== "pending") throw new TroupeError("conflict", `${id} was already ${r.status}`);
    return this.settlePermission(id, d.behavior === "allow" ? "allowed" : "denied", "person");
  }

  /** False: a daemon from before the work model (its routes answer not_found). */
  workRoutes = true;
  async initiatives(): Promise<Initiative[]> {
    this.check("initiatives", []);
    if (!this.workRoutes) throw new TroupeError("not_found", "no route GET /v1/initiatives");
    return [...this.initiativesById.values()];
  }
  async initiativeWork(ref: string): Promise<WorkItems> {
    this.check("initiativeWork", [ref]);
    return {
      initiatives: [],
      phases: [...this.phasesById.values()].filter((p) => p.initiativeId === ref),
      tasks: [...this.tasksById.values()].filter((t) => t.initiativeId === ref),
    };
  }
  async initiativeDiff(ref: string): Promise<string> {
    this.check("initiativeDiff", [ref]);
    return this.diffs.get(ref) ?? "";
  }
  /** Like the daemon's review: a proposed phase becomes approved, a proposed task pending. */
  async approve(req: ApproveRequest): Promise<WorkItems> {
    this.check("approve", [req]);
    const out: WorkItems = { initiatives: [], phases: [], tasks: [] };
    for (const id of req.ids ?? []) {
      const p = this.phasesById.get(id);
      const t = this.tasksById.get(id);
      if (p?.status === "proposed") out.phases.push(this.setPhase({ ...p, status: "approved" }));
      else if (t?.status === "proposed") out.tasks.push(this.setTask({ ...t, status: "pending" }));
      else throw new TroupeError("invalid_state", `${id} is not proposed`);
    }
    return out;
  }
  async reject(ref: string, req: RejectRequest): Promise<WorkItems> {
    this.check("reject", [ref, req]);
    const p = this.phasesById.get(ref);
    if (p) return { initiatives: [], phases: [this.setPhase({ ...p, status: "rejected", reason: req.reason })], tasks: [] };
    const t = this.tasksById.get(ref)!;
    return { initiatives: [], phases: [], tasks: [this.setTask({ ...t, status: "rejected", reason: req.reason })] };
  }
  /** Dependencies must name phases of the same initiative (by slug or id), as the daemon checks. */
  async edit(ref: string, req: EditRequest): Promise<WorkItems> {
    this.check("edit", [ref, req]);
    const p = this.phasesById.get(ref)!;
    const siblings = [...this.phasesById.values()].filter((x) => x.initiativeId === p.initiativeId);
    const dependsOn = (req.dependsOn ?? []).map((d) => {
      const dep = siblings.find((x) => x.slug === d || x.id === d);
      if (!dep) throw new TroupeError("bad_request", `phase ${p.slug} depends on '${d}': no such phase`);
      return dep.id;
    });
    const next = { ...p, title: req.title ?? p.title, content: req.body ?? p.content, dependsOn };
    return { initiatives: [], phases: [this.setPhase(next)], tasks: [] };
  }
  async retry(ref: string): Promise<Task> {
    this.check("retry", [ref]);
    return this.setTask({ ...this.tasksById.get(ref)!, status: "pending", reason: null });
  }

  /** The pool `hosts()` answers: this machine alone unless a test gives more. */
  hostsList: PoolHost[] = [{ name: "local", address: "/repo", slots: 4, reachable: true, error: null, platform: "linux-x64", running: 0, providers: ["generic"], accounts: [], checkedAt: 0, tasks: [] }];
  async hosts(): Promise<PoolHost[]> {
    this.check("hosts", []);
    return this.hostsList;
  }

  async flows(): Promise<Flow[]> {
    this.check("flows", []);
    return [...this.flowsByName.values()];
  }
  enableFlow(ref: string): Promise<Flow> {
    return this.setFlowEnabled(ref, true);
  }
  disableFlow(ref: string): Promise<Flow> {
    return this.setFlowEnabled(ref, false);
  }
  /** Both calls, recorded as one (`[ref, enabled]`). */
  async setFlowEnabled(ref: string, enabled: boolean): Promise<Flow> {
    this.check("setFlowEnabled", [ref, enabled]);
    const f = { ...this.flowsByName.get(ref)!, enabled, nextRunAt: enabled ? Date.now() + 3_600_000 : null };
    this.flowsByName.set(ref, f);
    return f;
  }
  /** Starts an agent as the daemon's flow run does, and records it as the flow's last run. */
  async runFlow(ref: string): Promise<FlowRunResult> {
    this.check("runFlow", [ref]);
    const a = makeAgent({ name: `${ref}-run`, status: "starting" });
    this.setAgent(a, "agent:created");
    const flow = { ...this.flowsByName.get(ref)!, lastRunAt: Date.now(), lastAgentId: a.id, lastOutcome: `started ${a.name}` };
    this.flowsByName.set(ref, flow);
    return { flow, outcome: `started ${a.name}`, agentId: a.id };
  }

  /** `troupe detail` and `troupe dispatch` (the dashboard reaches them through its `runs`). */
  async detail(ref: string): Promise<Agent> {
    this.check("detail", [ref]);
    const a = makeAgent({ name: `detail-${seq}`, mode: "detail", phaseId: ref, status: "starting" });
    this.setAgent(a, "agent:created");
    return a;
  }
  async dispatch(ref: string): Promise<Initiative> {
    this.check("dispatch", [ref]);
    // `command` joins the dispatch schema with the dispatch work: a variable (not a literal) fits both
    const dispatch = { concurrency: 4, provider: "claude", model: null, command: null, startedAt: Date.now() };
    return this.setInitiative({ ...this.initiativesById.get(ref)!, dispatch });
  }
  async stopDispatch(ref: string): Promise<Initiative> {
    this.check("stopDispatch", [ref]);
    return this.setInitiative({ ...this.initiativesById.get(ref)!, dispatch: null });
  }

  setInitiative(i: Initiative): Initiative {
    const cur = this.initiativesById.get(i.id);
    const next = cur ? { ...i, version: cur.version + 1 } : i;
    this.initiativesById.set(i.id, next);
    this.emit({ type: cur ? "initiative:updated" : "initiative:created", initiative: next });
    return next;
  }

  addInitiative(i: Initiative): Initiative {
    this.initiativesById.set(i.id, i);
    this.emit({ type: "initiative:created", initiative: i });
    return i;
  }
  /** Stores the phase (a new version of it when it exists) and pushes its event. */
  setPhase(p: Phase): Phase {
    const cur = this.phasesById.get(p.id);
    const next = cur ? { ...p, version: cur.version + 1 } : p;
    this.phasesById.set(p.id, next);
    this.emit({ type: cur ? "phase:updated" : "phase:created", phase: next });
    return next;
  }
  setTask(t: Task): Task {
    const cur = this.tasksById.get(t.id);
    const next = cur ? { ...t, version: cur.version + 1 } : t;
    this.tasksById.set(t.id, next);
    this.emit({ type: cur ? "task:updated" : "task:created", task: next });
    return next;
  }

  /** The stream as `events` gives it (the fake sends every agent's output: a filter only leaves some out). */
  async openEvents(since: number | null, signal?: AbortSignal): Promise<AsyncGenerator<EventMessage>> {
    return this.events(since, signal);
  }

  async *events(since: number | null, signal?: AbortSignal): AsyncGenerator<EventMessage> {
    this.check("events", [since]);
    const queue: (EventMessage | null)[] = [];
    let wake: (() => void) | null = null;
    const sub = (m: EventMessage | null) => {
      queue.push(m);
      wake?.();
    };
    this.subscribers.add(sub);
    const onAbort = () => sub(null);
    signal?.addEventListener("abort", onAbort);
    try {
      for (;;) {
        while (!queue.length) await new Promise<void>((r) => (wake = r));
        const m = queue.shift()!;
        if (m === null) {
          if (signal?.aborted) return;
          throw new TroupeError("daemon_unavailable", "event stream closed");
        }
        yield m;
      }
    } finally {
      this.subscribers.delete(sub);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  emit(event: DaemonEvent): void {
    const m = { id: this.nextEventId++, event };
    for (const s of this.subscribers) s(m);
  }

  /** Simulates the daemon going away: streams break and requests fail until `revive`. */
  kill(): void {
    this.up = false;
    for (const s of this.subscribers) s(null);
  }
  revive(): void {
    this.up = true;
  }

  setAgent(a: Agent, type: "agent:created" | "agent:updated" = "agent:updated"): void {
    this.agents.set(a.id, a);
    this.emit({ type, agent: a });
  }

  update(id: string, over: Partial<Agent>): Agent {
    const cur = this.agents.get(id)!;
    const a = { ...cur, ...over, updatedAt: Math.max(Date.now(), cur.updatedAt + 1) };
    this.setAgent(a);
    return a;
  }

  addConversation(c: Conversation): void {
    this.conversationsById.set(c.id, c);
    this.emit({ type: "conversation:created", conversation: c });
  }

  /** Stores a chunk and, unless `silent`, pushes its event (as the daemon does). */
  write(agentId: string, data: string, opts: { stream?: "stdout" | "stderr"; session?: number; silent?: boolean } = {}): OutputChunk {
    const chunk: OutputChunk = {
      id: this.nextChunkId++,
      agentId,
      session: opts.session ?? this.agents.get(agentId)?.session ?? 1,
      stream: opts.stream ?? "stdout",
      data,
      createdAt: Date.now(),
    };
    this.chunks.push(chunk);
    if (!opts.silent) this.emit({ type: "agent:output", chunk });
    return chunk;
  }
}
