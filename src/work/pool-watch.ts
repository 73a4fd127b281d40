import { errorMessage } from "../errors.ts";
import type { Logger } from "../events/log.ts";
import type { Agent } from "../protocol/entities.ts";
import type { PoolHost } from "../protocol/host.ts";
import { agentView, type AgentView } from "./dispatch-plan.ts";
import type { HostPort } from "./host-port.ts";

/**
 * How often the watch asks after the agents it follows while it has any (an exchange each over an
 * open link): what a host's event stream missed (opened late, broken) is seen within it.
 */
const EVERY_MS = 1_000;
/** How often it asks every host what it has (slots in use, providers, accounts). */
const HOSTS_EVERY_MS = 2_000;

/** A remote agent dispatch follows: a task's under way there, or a lost run's not yet ended. */
export interface Watched {
  host: string;
  name: string;
}

/**
 * What dispatch knows of the pool between its passes: each host as it last answered, and each
 * remote agent it follows as its host last showed it. Kept in the background, never inside a
 * pass (a host gone silent costs the look its timeout, not the pass): each host with an agent
 * followed there streams its agents' changes (an agent's end is news at once), and while anything
 * is dispatched onto the pool the agents are asked after every 1 s and the hosts every 2 s. News
 * (a host's state, an agent's status) wakes dispatch.
 */
export class PoolWatch {
  private hosts: PoolHost[] | null = null;
  private readonly agents = new Map<string, AgentView | null>();
  /** When each host last answered; a host never heard from counts from the watch's start. */
  private readonly answered = new Map<string, number>();
  private readonly startedAt = Date.now();
  private looking: Promise<void> | null = null;
  private listing: Promise<void> | null = null;
  private listedAt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  /** Each host's open event stream, and the agents followed there (`host/name`), as of the last look. */
  private readonly streams = new Map<string, AbortController>();
  private following = new Set<string>();

  constructor(
    private readonly d: {
      port: HostPort;
      log: Logger;
      /** Whether anything is dispatched (the watch sleeps otherwise), and the remote agents to follow. */
      active(): boolean;
      watched(): Watched[];
      /** Something it shows changed: a pass reads it. */
      news(): void;
      /** How long one host may take to answer a look. */
      timeoutMs: number;
    },
  ) {}

  /** The pool as last seen (this machine first); null before the first look ends. */
  pool(): PoolHost[] | null {
    return this.hosts;
  }

  /** A followed agent as its host last showed it: undefined while not seen, null when the host has none. */
  agent(host: string, name: string): AgentView | null | undefined {
    return this.agents.get(`${host}/${name}`);
  }

  /** What a request's reply showed of a followed agent (a resume's), until the next look. */
  saw(host: string, name: string, agent: Agent): void {
    this.agents.set(`${host}/${name}`, agentView(agent));
  }

  /** How long `host` has not answered (ms). */
  silentFor(host: string, now = Date.now()): number {
    return now - (this.answered.get(host) ?? this.startedAt);
  }

  /**
   * At each pass: the first look is awaited; while the watch sleeps (nothing on the pool), the
   * hosts are asked again at most every HOSTS_EVERY_MS, so a remote given slots meanwhile is seen.
   */
  async ready(): Promise<void> {
    if (this.hosts === null) await this.look();
    else if (!this.timer && Date.now() - this.listedAt >= HOSTS_EVERY_MS) void this.listHosts();
    this.schedule();
  }

  /** Looks again now (a start failed there: what the host is like matters at once). */
  poke(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    void this.look().then(() => this.schedule());
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const stop of this.streams.values()) stop.abort();
    this.streams.clear();
  }

  private schedule(): void {
    if (this.closed || this.timer || !this.d.active()) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.look().then(() => this.schedule());
    }, EVERY_MS);
    this.timer.unref?.();
  }

  private look(): Promise<void> {
    this.looking ??= this.lookNow().finally(() => (this.looking = null));
    return this.looking;
  }

  /**
   * Asks the hosts what they have (every HOSTS_EVERY_MS, and the first look waits for it), then
   * the followed agents of the hosts that answered. A host that does not answer holds up only the
   * asking of the hosts: the agents' looks go on meanwhile.
   */
  private async lookNow(): Promise<void> {
    if (this.hosts === null) await this.listHosts();
    else if (!this.listing && Date.now() - this.listedAt >= HOSTS_EVERY_MS) void this.listHosts();
    const before = this.shown();
    const reachable = new Set(this.hosts?.filter((h) => h.reachable).map((h) => h.name));
    const watched = this.d.watched().filter((w) => reachable.has(w.host));
    this.stream(watched);
    await Promise.all(
      watched.map(async (w) => {
        try {
          const a = await this.d.port.agent(w.host, w.name, AbortSignal.timeout(this.d.timeoutMs));
          this.agents.set(`${w.host}/${w.name}`, a && agentView(a));
          this.answered.set(w.host, Date.now());
        } catch (err) {
          this.d.log.warn(`asking ${w.host} about agent ${w.name}: ${errorMessage(err)}`);
        }
      }),
    );
    if (this.shown() !== before) this.d.news();
  }

  /**
   * A stream for each host with an agent followed there, none for the others. A stream that
   * breaks is opened again by the next look; the looks meanwhile see what it missed.
   */
  private stream(watched: Watched[]): void {
    this.following = new Set(watched.map((w) => `${w.host}/${w.name}`));
    const hosts = new Set(watched.map((w) => w.host));
    for (const [host, stop] of this.streams) {
      if (hosts.has(host)) continue;
      stop.abort();
      this.streams.delete(host);
    }
    for (const host of hosts) {
      if (this.streams.has(host) || this.closed) continue;
      const stop = new AbortController();
      this.streams.set(host, stop);
      void (async () => {
        try {
          for await (const agent of this.d.port.agentUpdates(host, stop.signal)) {
            this.answered.set(host, Date.now());
            const key = `${host}/${agent.name}`;
            if (!this.following.has(key)) continue;
            const view = agentView(agent);
            if (JSON.stringify(view) === JSON.stringify(this.agents.get(key))) continue;
            this.agents.set(key, view);
            this.d.news();
          }
        } catch {
          // the link or the stream went: the looks go on, and the next opens it again
        } finally {
          if (this.streams.get(host) === stop) this.streams.delete(host);
        }
      })();
    }
  }

  private listHosts(): Promise<void> {
    this.listing ??= (async () => {
      const before = this.shown();
      try {
        const hosts = await this.d.port.list();
        const now = Date.now();
        for (const h of hosts) if (h.reachable) this.answered.set(h.name, now);
        this.hosts = hosts;
      } catch (err) {
        this.d.log.warn(`looking at the pool: ${errorMessage(err)}`);
      } finally {
        this.listedAt = Date.now();
      }
      if (this.shown() !== before) this.d.news();
    })().finally(() => (this.listing = null));
    return this.listing;
  }

  /** What a pass reads, as text: a change of it is news. */
  private shown(): string {
    const hosts = this.hosts?.map((h) => [h.name, h.slots, h.reachable, h.providers, h.accounts.map((a) => [a.provider, a.status, a.runsOutAt])]);
    return JSON.stringify([hosts, [...this.agents]]);
  }
}
