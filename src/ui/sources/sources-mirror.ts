import type { Agent, Conversation } from "../../protocol/entities.ts";
import type { Message } from "../../protocol/message.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import type { WorkItems } from "../../protocol/api-work.ts";
import { idLabel } from "../../client/tagged-client.ts";
import type { LineParser } from "../../output/lines.ts";
import { OutputStore } from "../mirror/output-store.ts";
import { Publisher } from "../kit/publisher.ts";
import type { DashboardClient } from "../mirror/deps.ts";
import { DaemonMirror, type Connection, type Mirror, type MirrorOptions, type MirrorView, type SourceView, type SourcesView } from "../mirror/daemon-mirror.ts";
import { mergeEntities, type Merged } from "./merge-entities.ts";

/** One daemon the dashboard follows, with the client that reaches it (its numbered ids tagged with `label`). */
export interface MirrorSource {
  label: string;
  title: string;
  remote: boolean;
  client: DashboardClient;
}

/**
 * How long a remote's reconnections wait at most between tries: each try starts an ssh (a second
 * or more of someone's CPU and a login in the host's log), so a host that is away for an hour is
 * not dialled every two seconds. A workspace here retries as a single dashboard does.
 */
const REMOTE_RETRY_MAX_MS = 30_000;

/** The state of the sources together: live while any is, down when all are. */
function together(list: readonly SourceView[]): Connection {
  if (list.some((s) => s.connection.state === "live")) return { state: "live" };
  if (list.some((s) => s.connection.state === "connecting")) return { state: "connecting" };
  const downs = list.map((s) => s.connection).filter((c): c is Extract<Connection, { state: "down" }> => c.state === "down");
  return { state: "down", error: downs.length === 1 ? downs[0]!.error : "no source is reachable", since: Math.min(...downs.map((c) => c.since)) };
}

/**
 * Several daemons as one mirror: each source has its own (`DaemonMirror`: its snapshot, its events
 * replayed from its own last id after a reconnect, its backoff), and the view is their union, with
 * where each agent is (`sources`). Output is one store, each agent's read from its own daemon.
 * The person is alerted here for every source's agents (the mirrors' `onAttention`).
 */
export class SourcesMirror implements Mirror {
  readonly publisher: Publisher;
  readonly output: OutputStore;
  private readonly mirrors: DaemonMirror[];
  private merged: Merged | null = null;
  private list: readonly SourceView[];
  private indexed: { agents: unknown; index: Map<string, number> } = { agents: null, index: new Map() };
  private view: MirrorView;
  /** Agents a source returned before its mirror holds them (a spawn's reply): where they are. */
  private readonly placed = new Map<string, number>();

  constructor(
    private readonly sources: readonly MirrorSource[],
    parserFor: (provider: string) => LineParser,
    opts: MirrorOptions = {},
  ) {
    this.publisher = new Publisher(opts.hz ?? 30);
    this.output = new OutputStore({ output: (id, ...rest) => this.clientOf(id).output(id, ...rest) }, parserFor, { hz: opts.hz, ...opts.output });
    this.mirrors = sources.map(
      (s) => new DaemonMirror(s.client, parserFor, { ...opts, sharedOutput: this.output, retryMaxMs: opts.retryMaxMs ?? (s.remote ? REMOTE_RETRY_MAX_MS : undefined) }),
    );
    this.list = sources.map((s) => ({ label: s.label, title: s.title, remote: s.remote, connection: { state: "connecting" } }));
    this.view = this.compose();
    for (const m of this.mirrors) m.subscribe(() => this.changed());
  }

  getView = (): MirrorView => this.view;
  subscribe = (fn: () => void): (() => void) => this.publisher.subscribe(fn);

  start(): void {
    for (const m of this.mirrors) m.start();
  }

  /** Every source's daemon replied (a host that is down or slow to log in to keeps the first frame's short wait). */
  daemonAnswered = (): boolean => this.mirrors.every((m) => m.daemonAnswered());

  stop(): void {
    for (const m of this.mirrors) m.stop();
    this.publisher.dispose();
    this.output.dispose();
  }

  /** The label of the source that holds this agent, conversation, initiative, phase or task (or a tagged id); null when none does. */
  locate = (id: string): string | null => this.sources[this.sourceOf(id)]?.label ?? null;

  upsertAgent(agent: Agent, source?: string): void {
    let i = this.sourceOf(agent.id);
    if (i === -1 && source !== undefined) i = this.labelIndex(source);
    if (i === -1) return; // its source's events bring it
    this.placed.set(agent.id, i);
    this.mirrors[i]!.upsertAgent(agent);
  }

  upsertMessage(message: Message): void {
    this.mirrorOf(message.id)?.upsertMessage(message);
  }

  upsertPermission(request: PermissionRequest): void {
    this.mirrorOf(request.id)?.upsertPermission(request);
  }

  upsertConversation(conversation: Conversation): void {
    this.mirrorOf(conversation.id)?.upsertConversation(conversation);
  }

  upsertWork(items: Partial<WorkItems>): void {
    const per = new Map<DaemonMirror, { initiatives: WorkItems["initiatives"]; phases: WorkItems["phases"]; tasks: WorkItems["tasks"] }>();
    const into = (id: string, alt: string | undefined) => {
      const m = this.mirrorOf(id) ?? (alt ? this.mirrorOf(alt) : null);
      if (!m) return null;
      if (!per.has(m)) per.set(m, { initiatives: [], phases: [], tasks: [] });
      return per.get(m)!;
    };
    for (const x of items.initiatives ?? []) into(x.id, undefined)?.initiatives.push(x);
    for (const x of items.phases ?? []) into(x.id, x.initiativeId)?.phases.push(x);
    for (const x of items.tasks ?? []) into(x.id, x.initiativeId)?.tasks.push(x);
    for (const [m, part] of per) m.upsertWork(part);
  }

  private mirrorOf(id: string): DaemonMirror | null {
    return this.mirrors[this.sourceOf(id)] ?? null;
  }

  private labelIndex(label: string): number {
    return this.sources.findIndex((s) => s.label === label);
  }

  /** The index of the source that holds an agent (-1: none): the merged agents' index, then a spawn's reply not seen in its mirror yet. */
  private agentSource = (id: string): number => this.agentIndex().get(id) ?? this.placed.get(id) ?? -1;

  /**
   * The index of the source holding an id (-1: none): a tagged id by its label, an agent by
   * `agentSource`, anything else by asking each mirror.
   */
  private sourceOf(id: string): number {
    const tagged = idLabel(id);
    if (tagged !== null) return this.labelIndex(tagged);
    const agent = this.agentSource(id);
    if (agent !== -1) return agent;
    return this.mirrors.findIndex((m) => {
      const e = m.getView().entities;
      return id in e.conversations || id in e.work.initiatives || id in e.work.phases || id in e.work.tasks;
    });
  }

  private clientOf(agentId: string): DashboardClient {
    return this.sources[Math.max(0, this.agentSource(agentId))]!.client;
  }

  /** Each agent's source, rebuilt when the merged agents change. */
  private agentIndex(): Map<string, number> {
    const agents = this.view.entities.agents;
    if (this.indexed.agents === agents) return this.indexed.index;
    const index = new Map<string, number>();
    this.mirrors.forEach((m, i) => {
      for (const id in m.getView().entities.agents) if (!index.has(id)) index.set(id, i);
    });
    this.indexed = { agents, index };
    return index;
  }

  private changed(): void {
    const next = this.compose();
    if (next === this.view) return;
    this.view = next;
    this.publisher.flush();
  }

  private compose(): MirrorView {
    const views = this.mirrors.map((m) => m.getView());
    this.merged = mergeEntities(
      views.map((v) => v.entities),
      this.merged,
    );
    const list = this.list.map((s, i) => (s.connection === views[i]!.connection ? s : { ...s, connection: views[i]!.connection }));
    const listChanged = list.some((s, i) => s !== this.list[i]);
    if (listChanged) this.list = list;
    const prev = this.view as MirrorView | undefined;
    if (prev && !listChanged && prev.entities === this.merged.state) return prev;
    const sources: SourcesView = { list: this.list, indexOf: this.agentSource };
    return { entities: this.merged.state, connection: together(this.list), sources };
  }
}
