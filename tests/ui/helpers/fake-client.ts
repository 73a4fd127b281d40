import type { EventMessage } from "../../../src/client/sse.ts";
import { TroupeError } from "../../../src/errors.ts";
import type { Health, ResumeRequest, SpawnRequest } from "../../../src/protocol/api.ts";
import type { Agent, Conversation } from "../../../src/protocol/entities.ts";
import type { DaemonEvent } from "../../../src/protocol/events.ts";
import type { OutputChunk } from "../../../src/protocol/output.ts";
import type { DashboardClient } from "../../../src/ui/types.ts";
import type { Profile, ProfilesResponse } from "../../../src/protocol/profile.ts";

let seq = 0;

export function makeAgent(over: Partial<Agent> = {}): Agent {
  const n = ++seq;
  const now = Date.now();
  return {
    id: `a${n}`,
    name: `agent-${n}`,
    provider: "generic",
    status: "running",
    prompt: null,
    command: `echo ${n}`,
    model: null,
    permissions: "skip",
    cwd: "/tmp/ws",
    worktree: null,
    branch: null,
    baseRef: null,
    pid: 100 + n,
    session: 1,
    providerSessionId: null,
    result: null,
    error: null,
    questions: null,
    exitCode: null,
    costUsd: null,
    inputTokens: null,
    outputTokens: null,
    mode: null,
    initiativeId: null,
    taskId: null,
    phaseId: null,
    parentId: null,
    uncommitted: false,
    failure: null,
    retryAt: null,
    attempt: 1,
    budgetUsd: null,
    accountId: null,
    createdAt: now - 60_000,
    updatedAt: now,
    lastActivityAt: null,
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

type Call = { method: string; args: unknown[] };

/**
 * An in-memory daemon behind the dashboard's client interface: state to read, events to push,
 * and a record of every action the dashboard took.
 */
export class FakeClient implements DashboardClient {
  agents = new Map<string, Agent>();
  conversationsById = new Map<string, Conversation>();
  chunks: OutputChunk[] = [];
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
  async stopDaemon() {
    return { ok: true as const };
  }
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
  async resume(ref: string, req: ResumeRequest): Promise<Agent> {
    this.check("resume", [ref, req]);
    const a = this.agents.get(ref)!;
    return this.update(ref, { status: "running", questions: null, session: a.session + 1 });
  }
  async answer(id: string, answer: string): Promise<Conversation> {
    this.check("answer", [id, answer]);
    const c = { ...this.conversationsById.get(id)!, status: "answered" as const, answer, answeredBy: "user", answeredAt: Date.now() };
    this.conversationsById.set(id, c);
    this.emit({ type: "conversation:updated", conversation: c });
    return c;
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
