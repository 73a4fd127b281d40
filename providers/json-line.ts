import type { OutputEvent, Stream } from "../src/protocol/output.ts";

/** A JSON object decoded from one output line, or null when the line is not one. */
export type JsonObject = Record<string, unknown>;

function parseJsonObject(line: string): JsonObject | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith("{")) return null;
  try {
    const value: unknown = JSON.parse(trimmed);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function obj(value: unknown): JsonObject | undefined {
  return isObject(value) ? value : undefined;
}

/** Tool input as one display string: strings as they are, anything else as compact JSON. */
export function stringify(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

function raw(line: string): OutputEvent[] {
  return [{ kind: "raw", line }];
}

/**
 * Runs a JSON-line parser so that nothing escapes: a line that is not a JSON object, an
 * event the parser does not know (it returns null), or a parser bug all become `raw`.
 */
export function parseJsonLine(line: string, parse: (event: JsonObject) => OutputEvent[] | null): OutputEvent[] {
  const event = parseJsonObject(line);
  if (!event) return raw(line);
  try {
    return parse(event) ?? raw(line);
  } catch {
    return raw(line);
  }
}

/** A provider's parseLine for CLIs whose stdout is JSONL and whose stderr is only logs. */
export function jsonlStdout(parse: (event: JsonObject) => OutputEvent[] | null): (line: string, stream: Stream) => OutputEvent[] {
  return (line, stream) => (stream === "stderr" ? raw(line) : parseJsonLine(line, parse));
}
