import type { OutputChunk, OutputEvent, Stream } from "../protocol/output.ts";
import { assertNever } from "../errors.ts";
import { truncate, wrapText } from "./text.ts";
import { sanitize } from "./sanitize.ts";

export type LineKind = "text" | "tool" | "result" | "error" | "raw" | "meta";

/** One line to show: the dashboard's output pane and `troupe logs` both print these. */
export interface RenderedLine {
  text: string;
  kind: LineKind;
}

export type LineParser = (line: string, stream: Stream) => OutputEvent[];

export interface RenderOptions {
  /** The lines as the CLI wrote them, not parsed. */
  raw: boolean;
  /** Wrap text (and cut tool lines) to this many columns; unwrapped when absent. */
  width?: number;
}

/** The complete lines of a chunk, without their newlines. */
export function chunkLines(chunk: Pick<OutputChunk, "data">): string[] {
  const lines = chunk.data.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Heading shown where a new session (a resume) starts. */
export function sessionLine(session: number): RenderedLine {
  return { text: `── session ${session} ──`, kind: "meta" };
}

/** A note of troupe's among the output (stream `troupe`): shown as troupe's, never parsed as the CLI's. */
export function troupeLine(line: string): RenderedLine {
  return { text: `troupe: ${sanitize(line)}`, kind: "meta" };
}

export function renderEvent(ev: OutputEvent): RenderedLine[] {
  switch (ev.kind) {
    case "session":
      // the ids and names below are the CLI's words too: sanitised as its text is (the dashboard shows these lines as they are)
      return [{ text: sanitize(`session ${ev.sessionId}${ev.model ? ` · ${ev.model}` : ""}`), kind: "meta" }];
    case "text":
      // one line (a shell agent's every stdout line) without the split and the map
      return ev.text.includes("\n") ? ev.text.split("\n").map((t) => ({ text: sanitize(t), kind: "text" as const })) : [{ text: sanitize(ev.text), kind: "text" }];
    case "tool_use":
      return [{ text: `▸ ${sanitize(ev.name)}${summarizeInput(ev.input)}`, kind: "tool" }];
    case "tool_result":
      return [{ text: `  ⎿ ${summarizeOutput(ev.output, ev.isError)}`, kind: ev.isError ? "error" : "result" }];
    case "result":
      return renderResult(ev);
    case "error":
      return [{ text: `✗ ${sanitize(firstLine(ev.message))}`, kind: "error" }];
    case "input":
      return [{ text: `» ${inputSummary(ev.text)}`, kind: "meta" }];
    case "plan":
      return [{ text: "plan:", kind: "meta" }, ...ev.entries.map((e) => ({ text: `  ${PLAN_MARK[e.status]} ${sanitize(e.content)}`, kind: "tool" as const }))];
    case "usage":
      // the account's quota, read by the forecast and shown by `troupe account ls`: not the agent's words
      return [];
    case "raw":
      return [{ text: sanitize(ev.line), kind: "raw" }];
    default:
      return assertNever(ev);
  }
}

/** A plan entry's status, as a check box: to do, under way, done. */
const PLAN_MARK = { pending: "[ ]", in_progress: "[>]", completed: "[x]" } as const;

function renderResult(ev: Extract<OutputEvent, { kind: "result" }>): RenderedLine[] {
  const facts: string[] = [ev.isError ? "✗ failed" : ev.stopReason ? `■ turn ended: ${ev.stopReason}` : "✓ result"];
  if (ev.costUsd !== undefined) facts.push(formatCost(ev.costUsd));
  if (ev.inputTokens !== undefined || ev.outputTokens !== undefined) {
    facts.push(`${compact(ev.inputTokens ?? 0)} in / ${compact(ev.outputTokens ?? 0)} out`);
  }
  const lines: RenderedLine[] = [{ text: facts.join(" · "), kind: ev.isError ? "error" : "meta" }];
  if (ev.isError && ev.text) lines.push({ text: sanitize(firstLine(ev.text)), kind: "error" });
  return lines;
}

export function formatCost(usd: number): string {
  return usd < 0.01 && usd > 0 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}

function compact(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}k`;
  return String(n);
}

/** A message written into a running session (or its prompt), as one line: its first, and how many more. */
function inputSummary(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : "";
  return `${truncate(sanitize((lines[0] ?? "").trim()), 200)}${more}`;
}

function firstLine(s: string): string {
  const t = s.trim();
  const nl = t.indexOf("\n");
  return nl === -1 ? t : t.slice(0, nl);
}

// The fields that say most about a tool call, in the order the common agent CLIs name them.
const SALIENT = ["command", "file_path", "path", "pattern", "url", "query", "description", "prompt", "file", "cmd"];

/** `(…)` summary of a tool's input: its most telling field, else compact JSON. */
export function summarizeInput(input: string): string {
  const s = input.trim();
  if (s === "" || s === "{}") return "";
  let shown = s;
  try {
    const v: unknown = JSON.parse(s);
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const rec = v as Record<string, unknown>;
      const key = SALIENT.find((k) => typeof rec[k] === "string" || Array.isArray(rec[k]));
      if (key) {
        const val = rec[key];
        shown = Array.isArray(val) ? val.join(" ") : String(val);
      } else {
        shown = JSON.stringify(v);
      }
    }
  } catch {
    // not JSON: show as written
  }
  return `(${truncate(sanitize(shown.replace(/\s*\n\s*/g, " ")), 200)})`;
}

/** One line for a tool's result: its first non-empty line, and how many more there were. */
function summarizeOutput(output: string, isError: boolean): string {
  const lines = output.split("\n").filter((l) => l.trim() !== "");
  if (lines.length === 0) return isError ? "error (no output)" : "(no output)";
  const head = sanitize(lines[0]!.trim());
  const more = lines.length > 1 ? ` (+${lines.length - 1} lines)` : "";
  return `${isError ? "error: " : ""}${truncate(head, 160)}${more}`;
}

/**
 * Display rows of `lines` at `width`: text and raw lines wrap, a tool call stays one compact row.
 */
export function wrapLines(lines: RenderedLine[], width: number): RenderedLine[] {
  const out: RenderedLine[] = [];
  for (const l of lines) for (const text of wrapRow(l, width)) out.push({ text, kind: l.kind });
  return out;
}

/** The rows one line takes at `width`. */
export function wrapRow(l: RenderedLine, width: number): string[] {
  if (l.kind === "tool" || l.kind === "result") return [truncate(l.text, width)];
  return wrapText(l.text, width);
}

const SGR: Record<LineKind, [string, string]> = {
  text: ["", ""],
  tool: ["\x1b[36m", "\x1b[39m"],
  result: ["\x1b[2m", "\x1b[22m"],
  error: ["\x1b[31m", "\x1b[39m"],
  raw: ["", ""],
  meta: ["\x1b[2m", "\x1b[22m"],
};

/**
 * One line for a plain terminal: its text sanitised (whatever made the line), then coloured by
 * kind when `color`. Safe to write as it is: the only escapes in it are troupe's own.
 */
export function formatLine(l: RenderedLine, opts: { color: boolean }): string {
  const text = sanitize(l.text);
  if (!opts.color) return text;
  const [on, off] = SGR[l.kind];
  return on ? `${on}${text}${off}` : text;
}

/** Colour is off under NO_COLOR (any non-empty value), TERM=dumb, or when stdout is not a terminal. */
export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.TERM === "dumb") return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "0") return true;
  return Boolean(stream.isTTY);
}
