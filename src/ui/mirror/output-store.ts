import type { OutputChunk } from "../../protocol/output.ts";
import { chunkLines, type LineParser, type RenderedLine } from "../../output/lines.ts";
import { sanitize } from "../../output/sanitize.ts";
import { OutputRenderer, type LineSink } from "../../output/renderer.ts";
import { errorMessage } from "../../errors.ts";
import { Publisher } from "../kit/publisher.ts";
import type { DashboardClient } from "./deps.ts";

/** Lines by absolute index; old ones may have been dropped (`base` > 0) to keep memory flat. */
export interface LineSource {
  readonly base: number;
  /** One past the last absolute index. */
  readonly end: number;
  at(index: number): RenderedLine;
}

/** Lines kept per agent and view: older ones drop off, so memory stays flat however long the output. */
const DEFAULT_CAP = 5_000;

/** The last `cap` items (give or take a batch) by absolute index; older ones drop off. */
class Ring<T> {
  base = 0;
  items: T[] = [];
  constructor(private readonly cap: number) {}
  get end(): number {
    return this.base + this.items.length;
  }
  at(i: number): T {
    return this.items[i - this.base]!;
  }
  push(item: T): void {
    this.items.push(item);
    // Trim in batches: splicing on every line would make appends O(cap).
    if (this.items.length > this.cap + (this.cap >> 2)) {
      const drop = this.items.length - this.cap;
      this.items.splice(0, drop);
      this.base += drop;
    }
  }
}

class LineRing extends Ring<RenderedLine> implements LineSource, LineSink {
  /** A streamed text delta continuing the last line's paragraph. */
  extend(text: string): void {
    const last = this.items.length - 1;
    if (last < 0) return this.push({ text, kind: "text" });
    this.items[last] = { ...this.items[last]!, text: this.items[last]!.text + text };
  }
}

/**
 * Raw lines stay the strings the CLI wrote: only the few on screen become display lines, when
 * drawn (a line object per line, for a view most people never open, doubled what a buffer held).
 */
function rawSource(lines: Ring<string>): LineSource {
  return {
    get base() {
      return lines.base;
    },
    get end() {
      return lines.end;
    },
    at: (i) => ({ text: sanitize(lines.at(i)), kind: "raw" }),
  };
}

export type OutputState = "loading" | "ready" | "error";

/** One agent's output as display lines, rendered and raw, kept current from history then events. */
export class AgentOutput {
  readonly rendered: LineRing;
  private readonly raw: Ring<string>;
  private readonly rawLines: LineSource;
  lastChunkId = 0;
  state: OutputState = "loading";
  error: string | null = null;
  /** Lines seen in all, including those dropped. */
  total = 0;
  /** Keeps what spans chunks: the session heading, a paragraph of text deltas still growing. */
  private readonly renderer: OutputRenderer;
  /** Live chunks that arrived while history was loading, or while it catches up (`catching`). */
  queued: OutputChunk[] = [];
  /**
   * Catching up by chunk id (`fetchAfter`) is under way: a live chunk waits in `queued`, since
   * appending it first would move `lastChunkId` past the chunks being fetched, and those would be
   * dropped as already had.
   */
  catching = false;
  /** The event stream was opened again while history loaded or a catch-up ran: catch up (once more) when that is done. */
  catchUpAgain = false;

  constructor(readonly agentId: string, parse: LineParser, cap: number) {
    this.rendered = new LineRing(cap);
    this.raw = new Ring<string>(cap);
    this.rawLines = rawSource(this.raw);
    this.renderer = new OutputRenderer(parse);
  }

  append(chunk: OutputChunk): boolean {
    if (chunk.id <= this.lastChunkId) return false; // already have it (history and events overlap)
    this.lastChunkId = chunk.id;
    const lines = chunkLines(chunk);
    this.renderer.chunk(chunk, this.rendered, lines);
    this.total += lines.length;
    // troupe's own note (output dropped under the cap) says whose it is in the raw view too
    for (const line of lines) this.raw.push(chunk.stream === "troupe" ? `troupe: ${line}` : line);
    return true;
  }

  /** Counts a history chunk that is not shown (older than what is kept) without rendering it. */
  skip(chunk: OutputChunk): void {
    this.lastChunkId = Math.max(this.lastChunkId, chunk.id);
    this.total += chunkLines(chunk).length;
  }

  source(raw: boolean): LineSource {
    return raw ? this.rawLines : this.rendered;
  }
}

export interface OutputStoreOptions {
  cap?: number;
  /** How many agents' output stays loaded besides the one on screen. */
  keep?: number;
  pageSize?: number;
  hz?: number;
}

/** Output of the agents the person looked at recently, outside React; publishes at most `hz` times a second. */
export class OutputStore {
  readonly publisher: Publisher;
  private readonly buffers = new Map<string, AgentOutput>();
  private readonly cap: number;
  private readonly keep: number;
  private readonly pageSize: number;
  private disposed = false;

  constructor(
    private readonly client: Pick<DashboardClient, "output">,
    private readonly parserFor: (provider: string) => LineParser,
    opts: OutputStoreOptions = {},
  ) {
    this.cap = opts.cap ?? DEFAULT_CAP;
    this.keep = opts.keep ?? 6;
    this.pageSize = opts.pageSize ?? 200;
    this.publisher = new Publisher(opts.hz ?? 30);
  }

  get(agentId: string): AgentOutput | undefined {
    return this.buffers.get(agentId);
  }

  /** The agent's output, loading its history on first use. */
  ensure(agentId: string, provider: string): AgentOutput {
    const have = this.buffers.get(agentId);
    if (have) {
      // Most recently used last: Map keeps insertion order.
      this.buffers.delete(agentId);
      this.buffers.set(agentId, have);
      return have;
    }
    const buf = new AgentOutput(agentId, this.parserFor(provider), this.cap);
    this.buffers.set(agentId, buf);
    while (this.buffers.size > this.keep + 1) this.buffers.delete(this.buffers.keys().next().value!);
    void this.load(buf);
    this.onLoadedChange?.();
    return buf;
  }

  /** Called when an agent's output starts to be loaded (and another's may have been let go): `loaded()` changed. */
  onLoadedChange: (() => void) | null = null;

  /** The agents whose output is loaded: the only ones whose live chunks are kept. */
  loaded(): string[] {
    return [...this.buffers.keys()];
  }

  private async load(buf: AgentOutput): Promise<void> {
    try {
      await this.fetchHistory(buf);
      if (this.buffers.get(buf.agentId) !== buf) return;
      while (buf.catchUpAgain && this.buffers.get(buf.agentId) === buf) {
        buf.catchUpAgain = false;
        await this.fetchAfter(buf);
      }
      if (this.buffers.get(buf.agentId) !== buf) return;
      for (const c of buf.queued) buf.append(c);
      buf.queued = [];
      buf.state = "ready";
    } catch (err) {
      buf.state = "error";
      buf.error = errorMessage(err);
    }
    if (!this.disposed) this.publisher.flush();
  }

  /**
   * History is read from the end backwards, a page at a time, until it holds the last `cap`
   * lines: opening an agent with a million lines reads a few pages, not all of them.
   */
  private async fetchHistory(buf: AgentOutput): Promise<void> {
    const kept: OutputChunk[] = [];
    let keptLines = 0;
    let before = Number.MAX_SAFE_INTEGER;
    while (keptLines < this.cap) {
      const chunks = await this.client.output(buf.agentId, { before, limit: this.pageSize });
      if (this.buffers.get(buf.agentId) !== buf) return; // dropped meanwhile
      if (!chunks.length) break;
      kept.unshift(...chunks);
      for (const c of chunks) keptLines += chunkLines(c).length;
      before = chunks[0]!.id;
    }
    // a page may hold far more lines than are kept: render only the chunks that show
    while (kept.length > 1 && keptLines - chunkLines(kept[0]!).length >= this.cap) {
      const dropped = kept.shift()!;
      keptLines -= chunkLines(dropped).length;
      buf.skip(dropped);
    }
    for (const c of kept) buf.append(c);
  }

  private async fetchAfter(buf: AgentOutput): Promise<void> {
    for (;;) {
      const chunks = await this.client.output(buf.agentId, { after: buf.lastChunkId, limit: this.pageSize });
      if (this.buffers.get(buf.agentId) !== buf) return; // dropped meanwhile
      for (const c of chunks) buf.append(c);
      if (chunks.length === 0) return; // a page is capped by bytes too: only an empty one is the end
      this.publisher.changed();
    }
  }

  /** `fetchAfter` of a loaded buffer, live chunks held back meanwhile and appended after (those already fetched are skipped by id). */
  private async catchUpReady(buf: AgentOutput): Promise<void> {
    if (buf.catching) {
      buf.catchUpAgain = true; // the one under way goes round once more
      return;
    }
    buf.catching = true;
    try {
      do {
        buf.catchUpAgain = false;
        await this.fetchAfter(buf);
      } while (buf.catchUpAgain && this.buffers.get(buf.agentId) === buf);
    } finally {
      buf.catching = false;
      for (const c of buf.queued) if (buf.append(c)) this.publisher.changed();
      buf.queued = [];
    }
  }

  /** A live chunk from the event stream. */
  onChunk(chunk: OutputChunk): void {
    const buf = this.buffers.get(chunk.agentId);
    if (!buf) return; // not on screen: its history loads when it is
    if (buf.state === "loading" || buf.catching) buf.queued.push(chunk);
    else if (buf.append(chunk)) this.publisher.changed();
  }

  /** After a reconnect or resync: fetch what the events may have missed (of the agents `mine` takes: one source's, when several share the store). */
  async catchUp(mine: (agentId: string) => boolean = () => true): Promise<void> {
    await Promise.all(
      [...this.buffers.values()].filter((buf) => mine(buf.agentId)).map(async (buf) => {
        if (buf.state !== "ready") {
          if (buf.state === "error") {
            this.buffers.delete(buf.agentId); // loads afresh when next shown
          } else buf.catchUpAgain = true; // its history may have been read before the stream was open
          return;
        }
        try {
          await this.catchUpReady(buf);
        } catch {
          // the next reconnect tries again
        }
      }),
    );
    if (!this.disposed) this.publisher.flush();
  }

  dispose(): void {
    this.disposed = true;
    this.publisher.dispose();
    this.buffers.clear();
  }
}
