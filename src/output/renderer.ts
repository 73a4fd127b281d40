import type { OutputChunk, OutputEvent, Stream } from "../protocol/output.ts";
import { chunkLines, renderEvent, sessionLine, troupeLine, wrapLines, type LineParser, type RenderedLine, type RenderOptions } from "./lines.ts";
import { sanitize } from "./sanitize.ts";

/** Where rendered lines go: an array for `troupe logs`, the dashboard's ring of recent lines. */
export interface LineSink {
  push(line: RenderedLine): void;
  /** Appends `text` to the last line pushed: a streamed text delta continuing its paragraph. */
  extend(text: string): void;
}

/**
 * Renders output as it arrives, chunk by chunk, keeping the state that spans lines and chunks:
 * the session heading, and whether the last line is a paragraph of text deltas still growing.
 * Deltas of one message (Gemini CLI streams a word per event) join into one paragraph, however
 * the chunks fell, so rendering all chunks at once and one at a time give the same lines.
 */
export class OutputRenderer {
  private session: number | null = null;
  /** The last line pushed ends a delta paragraph that the next delta continues. */
  private openDelta = false;

  /** `raw`: the lines as the CLI wrote them, one display line each, not parsed. */
  constructor(private readonly parse: LineParser, private readonly raw = false) {}

  /** `lines`: the chunk's lines, when the caller split it already. */
  chunk(chunk: OutputChunk, sink: LineSink, lines: readonly string[] = chunkLines(chunk)): void {
    if (chunk.session !== this.session) {
      if (this.session !== null || chunk.session > 1) sink.push(sessionLine(chunk.session));
      this.session = chunk.session;
      this.openDelta = false;
    }
    for (const line of lines) this.line(line, chunk.stream, sink);
  }

  line(line: string, stream: Stream, sink: LineSink): void {
    if (stream === "troupe") {
      this.openDelta = false;
      return sink.push(troupeLine(line));
    }
    // raw is unrendered, not unsanitized: what reaches a terminal never carries its escapes
    if (this.raw) return sink.push({ text: sanitize(line), kind: "raw" });
    for (const ev of this.parse(line, stream)) this.event(ev, sink);
  }

  private event(ev: OutputEvent, sink: LineSink): void {
    if (ev.kind !== "text" || !ev.delta) {
      const lines = renderEvent(ev);
      for (const l of lines) sink.push(l);
      if (lines.length) this.openDelta = false;
      return;
    }
    const [first = "", ...rest] = ev.text.split("\n");
    if (this.openDelta) sink.extend(sanitize(first));
    else sink.push({ text: sanitize(first), kind: "text" });
    for (const t of rest) sink.push({ text: sanitize(t), kind: "text" });
    this.openDelta = true;
  }
}

/** A sink that collects lines in an array. */
export function arraySink(lines: RenderedLine[]): LineSink {
  return {
    push: (l) => void lines.push(l),
    extend: (text) => {
      const last = lines[lines.length - 1];
      if (last) lines[lines.length - 1] = { ...last, text: last.text + text };
      else lines.push({ text, kind: "text" });
    },
  };
}

/** Pure: a provider's output chunks (oldest first) to display lines. */
export function renderChunksWith(parse: LineParser, chunks: readonly OutputChunk[], opts: RenderOptions): RenderedLine[] {
  const lines: RenderedLine[] = [];
  const renderer = new OutputRenderer(parse, opts.raw);
  const sink = arraySink(lines);
  for (const chunk of chunks) renderer.chunk(chunk, sink);
  return opts.width === undefined ? lines : wrapLines(lines, opts.width);
}
