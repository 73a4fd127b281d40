import type { Agent, Conversation } from "../../protocol/entities.ts";
import type { DaemonEvent } from "../../protocol/events.ts";
import type { Message } from "../../protocol/message.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import type { EventFilter, EventMessage } from "../../client/sse.ts";
import { TroupeError, errorMessage } from "../../errors.ts";
import type { LineParser } from "../../output/lines.ts";
import { entitiesReducer, initialEntities, type EntitiesState } from "./entities-state.ts";
import { attentionItems, type AttentionItem } from "./attention.ts";
import { OutputStore, type OutputStoreOptions } from "./output-store.ts";
import { Publisher } from "../kit/publisher.ts";
import type { DashboardClient } from "./deps.ts";
import type { WorkItems } from "../../protocol/api-work.ts";
import type { Initiative } from "../../protocol/work.ts";
import type { WorkSnapshot } from "./work-state.ts";

export type Connection =
  | { state: "connecting" }
  | { state: "live" }
  /** The daemon went away; we keep what we had and retry. */
  | { state: "down"; error: string; since: number };

export interface MirrorView {
  entities: EntitiesState;
  /** With several sources: live while any is (each source's own is in `sources`). */
  connection: Connection;
  /** Present when the dashboard follows several sources (`sources-mirror.ts`). */
  sources?: SourcesView;
}

/** One source as the dashboard shows it: a header over its agents. */
export interface SourceView {
  /** Unique among the sources; a tagged id ends with it (`msg_3@box1`). */
  label: string;
  /** The header's text: the folder for a workspace here, `NAME · user@host:/path` for a remote. */
  title: string;
  remote: boolean;
  connection: Connection;
}

/** The sources in list order, and where each agent is. */
export interface SourcesView {
  list: readonly SourceView[];
  /** The index in `list` of the source that holds the agent; -1 for none. */
  indexOf(agentId: string): number;
}

/** What the dashboard reads and tells: one daemon's mirror, or several as one (`SourcesMirror`). */
export interface Mirror {
  readonly publisher: Publisher;
  readonly output: OutputStore;
  getView(): MirrorView;
  subscribe(fn: () => void): () => void;
  start(): void;
  stop(): void;
  /** Whether the daemon replied to the health request: its snapshot is on its way (the first frame waits longer for it). */
  daemonAnswered(): boolean;
  /** `source`: the label of the source it came from, for an agent the mirror does not hold yet (just spawned). */
  upsertAgent(agent: Agent, source?: string): void;
  upsertMessage(message: Message): void;
  upsertPermission(request: PermissionRequest): void;
  upsertConversation(conversation: Conversation): void;
  upsertWork(items: Partial<WorkItems>): void;
}

export interface MirrorOptions {
  /** Called once each time something new starts waiting for the person (or fails), with what is new. */
  onAttention?: (items: AttentionItem[]) => void;
  hz?: number;
  retryMaxMs?: number;
  output?: OutputStoreOptions;
  /** The output store to feed, shared by the sources of a dashboard that follows several; else its own. */
  sharedOutput?: OutputStore;
}

/**
 * The daemon's state mirrored in the dashboard: a snapshot, then events (replayed from the last
 * id after a reconnect), applied in batches outside React and published at most ~30 times a
 * second. It reads the stream that the daemon's `src/events/event-feed.ts` serves.
 */
export class DaemonMirror implements Mirror {
  readonly publisher: Publisher;
  readonly output: OutputStore;
  private view: MirrorView = { entities: initialEntities, connection: { state: "connecting" } };
  private pending: DaemonEvent[] = [];
  private since: number | null = null;
  private daemonId: string | null = null;
  private attention: Set<string> | null = null;
  private stopped = false;
  private current: AbortController | null = null;
  private wake: (() => void) | null = null;
  /**
   * With its own output store, the mirror asks the daemon for the output of the agents whose
   * output is loaded only (`output` filter): with ten agents streaming among a thousand, the rest
   * was read and checked for nothing. When that set changes the stream is opened again.
   */
  private readonly filtersOutput: boolean;
  /** The set of loaded agents changed since the stream was opened: open it again. */
  private refilter = false;
  private reopening = false;

  constructor(
    private readonly client: DashboardClient,
    parserFor: (provider: string) => LineParser,
    private readonly opts: MirrorOptions = {},
  ) {
    this.publisher = new Publisher(opts.hz ?? 30, () => this.applyPending());
    this.output = opts.sharedOutput ?? new OutputStore(client, parserFor, { hz: opts.hz, ...opts.output });
    this.filtersOutput = !opts.sharedOutput;
    if (this.filtersOutput) this.output.onLoadedChange = () => this.loadedChanged();
  }

  /**
   * The loaded agents' output (all, over a shared store), and where the stream starts: a stream
   * opened again replays from there, with no refetch of the whole state, even when no numbered
   * event came meanwhile (at 1,000 quiet agents, a refetch at each move of the selection).
   */
  private filter(): EventFilter {
    return { output: this.filtersOutput ? this.output.loaded() : undefined, onStartId: this.startAt };
  }

  private readonly startAt = (id: number): void => {
    this.since = id;
  };

  /** Ends the stream being read (the loop opens it again with the new set); one still opening is ended once open. */
  private loadedChanged(): void {
    this.refilter = true;
    if (this.view.connection.state === "live" && !this.reopening) this.current?.abort();
  }

  /**
   * The stream again, with the agents loaded now: lifecycle events replay from the last id (a
   * full refresh when there is none: a daemon from before sends no start id), and the loaded
   * agents' output is caught up by chunk id once the daemon has the new subscription, live
   * chunks held back meanwhile: none is lost or doubled (tests/integration/output-filter.test.ts).
   */
  private async reopen(): Promise<AsyncGenerator<EventMessage>> {
    this.reopening = true;
    try {
      this.refilter = false;
      const ctrl = new AbortController();
      this.current = ctrl;
      const events = (await this.client.openEvents(this.since, ctrl.signal, this.filter()))[Symbol.asyncIterator]();
      if (this.since === null) await this.refresh();
      void this.output.catchUp(this.mine);
      if (this.refilter) ctrl.abort(); // changed again meanwhile: the loop opens it once more
      return events;
    } finally {
      this.reopening = false;
    }
  }

  getView = (): MirrorView => this.view;
  /** The agents whose output this mirror catches up: all, unless the store is shared by several sources' mirrors. */
  private readonly mine = (agentId: string): boolean => !this.opts.sharedOutput || agentId in this.view.entities.agents;
  subscribe = (fn: () => void): (() => void) => this.publisher.subscribe(fn);

  /**
   * No periodic refetch: the stream replays from the last id after a reconnect, and a client
   * further behind gets a `resync`; those two refetch. An idle dashboard wakes for nothing.
   */
  start(): void {
    void this.loop();
  }

  daemonAnswered = (): boolean => this.daemonId !== null;

  stop(): void {
    this.stopped = true;
    this.current?.abort();
    this.wake?.();
    this.publisher.dispose();
    if (!this.opts.sharedOutput) this.output.dispose();
  }

  /** Applies an agent an action returned, without waiting for its event. */
  upsertAgent(agent: Agent): void {
    this.pending.push({ type: "agent:updated", agent });
    this.publisher.flush();
  }

  upsertMessage(message: Message): void {
    this.pending.push({ type: "message:updated", message });
    this.publisher.flush();
  }

  /** Applies a request as a decision returned it, without waiting for its event. */
  upsertPermission(request: PermissionRequest): void {
    this.pending.push({ type: "permission:updated", request });
    this.publisher.flush();
  }

  upsertConversation(conversation: Conversation): void {
    this.pending.push({ type: "conversation:updated", conversation });
    this.publisher.flush();
  }

  private async loop(): Promise<void> {
    let delay = 200;
    while (!this.stopped) {
      const ctrl = new AbortController();
      this.current = ctrl;
      try {
        // the first connection has nothing to replay: the stream and the snapshot are asked for
        // beside the health check (on a slow link, two round trips less before the list); a
        // reconnection first learns which daemon answers
        const fresh = this.daemonId === null && this.since === null;
        const health = this.client.health();
        health.catch(() => undefined); // awaited below
        if (!fresh) this.daemonIs(await health);
        this.refilter = false;
        let events = this.client.events(this.since, ctrl.signal, this.filter())[Symbol.asyncIterator]();
        let next = events.next();
        next.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
        if (fresh) this.daemonIs((await Promise.all([health, this.refresh()]))[0]);
        else await this.refresh();
        void this.output.catchUp(this.mine);
        this.setConnection({ state: "live" });
        if (this.refilter) this.current?.abort();
        delay = 200;
        for (;;) {
          const r: IteratorResult<EventMessage> = await next;
          if (r.done && this.refilter && !this.stopped) {
            events = await this.reopen();
            next = events.next();
            next.catch(() => undefined);
            continue;
          }
          if (r.done) break;
          this.handle(r.value);
          next = events.next();
          next.catch(() => undefined);
        }
        if (this.stopped) return;
        throw new TroupeError("daemon_unavailable", "the daemon closed the event stream");
      } catch (err) {
        this.current?.abort();
        if (this.stopped) return;
        const prev = this.view.connection;
        this.setConnection({ state: "down", error: errorMessage(err), since: prev.state === "down" ? prev.since : Date.now() });
        await this.sleep(delay);
        delay = Math.min(delay * 2, this.opts.retryMaxMs ?? 2000);
      }
    }
  }

  /** The daemon that answered: a different one numbers its events afresh, so replaying from our last id would skip them. */
  private daemonIs(health: { pid: number; startedAt: number }): void {
    const id = `${health.pid}:${health.startedAt}`;
    if (this.daemonId !== null && this.daemonId !== id) this.since = null;
    this.daemonId = id;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  }

  private handle(msg: EventMessage): void {
    if (msg.id !== null) this.since = msg.id;
    const ev = msg.event;
    switch (ev.type) {
      case "agent:output":
        this.output.onChunk(ev.chunk);
        return;
      case "resync":
        this.refresh().catch(() => undefined);
        void this.output.catchUp(this.mine);
        return;
      default:
        this.pending.push(ev);
        this.publisher.changed();
    }
  }

  /** Applies what a review action returned (approve, reject, edit, retry), without waiting for its events. */
  upsertWork(items: Partial<WorkItems>): void {
    for (const initiative of items.initiatives ?? []) this.pending.push({ type: "initiative:updated", initiative });
    for (const phase of items.phases ?? []) this.pending.push({ type: "phase:updated", phase });
    for (const task of items.tasks ?? []) this.pending.push({ type: "task:updated", task });
    this.publisher.flush();
  }

  /** Fetches the whole state; events newer than it still win per entity. */
  async refresh(): Promise<void> {
    const [agents, conversations, work, messages, permissions] = await Promise.all([
      this.client.listAgents(),
      this.client.conversations({ pending: true }),
      this.workSnapshot(),
      this.unreadMessages(),
      this.pendingPermissions(),
    ]);
    if (this.stopped) return;
    this.applyPending();
    this.setEntities(entitiesReducer(this.view.entities, { type: "snapshot", agents, conversations, work, messages, permissions }));
    this.publisher.flush();
  }

  /** The person's unread messages; a daemon from before messages has no such route (the rest works). */
  private async unreadMessages(): Promise<Message[] | undefined> {
    try {
      return await this.client.messages({ to: "user", unread: true });
    } catch (err) {
      if (err instanceof TroupeError && err.code === "not_found") return undefined;
      throw err;
    }
  }

  /** The requests waiting for the person; a daemon from before permissions has no such route. */
  private async pendingPermissions(): Promise<PermissionRequest[] | undefined> {
    try {
      return await this.client.permissions({ pending: true });
    } catch (err) {
      if (err instanceof TroupeError && err.code === "not_found") return undefined;
      throw err;
    }
  }

  /**
   * Every initiative that is not archived, with its phases and tasks. A daemon from before the
   * work model (still running after an upgrade) has no such route: the rest of the dashboard works.
   */
  private async workSnapshot(): Promise<WorkSnapshot | undefined> {
    let all: Initiative[];
    try {
      all = await this.client.initiatives();
    } catch (err) {
      if (err instanceof TroupeError && err.code === "not_found") return undefined;
      throw err;
    }
    const initiatives = all.filter((i) => i.status !== "archived");
    const parts = await Promise.all(initiatives.map((i) => this.client.initiativeWork(i.id)));
    return { initiatives, phases: parts.flatMap((p) => p.phases), tasks: parts.flatMap((p) => p.tasks) };
  }

  private applyPending(): void {
    if (!this.pending.length) return;
    const events = this.pending;
    this.pending = [];
    this.setEntities(entitiesReducer(this.view.entities, { type: "events", events }));
  }

  private setEntities(entities: EntitiesState): void {
    if (entities === this.view.entities) return;
    this.view = { ...this.view, entities };
    const items = attentionItems(entities);
    // the first state is what already waited when the dashboard opened: nothing new in it
    const fresh = this.attention === null ? [] : [...items].filter(([k]) => !this.attention!.has(k)).map(([, item]) => item);
    this.attention = new Set(items.keys());
    if (fresh.length) this.opts.onAttention?.(fresh);
  }

  private setConnection(connection: Connection): void {
    const cur = this.view.connection;
    if (cur.state === connection.state && (cur.state !== "down" || (connection.state === "down" && cur.error === connection.error))) return;
    this.view = { ...this.view, connection };
    this.publisher.flush();
  }
}
