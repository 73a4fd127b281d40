import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { SignalSchema, type Signal } from "../protocol/signal.ts";
import { describeIssue } from "../protocol/issue.ts";

/** Written to a temp file beside it and renamed: a reader never sees half a signal. */
export function writeSignalFile(path: string, signal: Signal): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(signal)}\n`);
  renameSync(tmp, path);
}

export type SignalRead = { kind: "ok"; signal: Signal } | { kind: "missing" } | { kind: "malformed"; reason: string };

export function readSignalFile(path: string): SignalRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { kind: "missing" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: "malformed", reason: "not JSON" };
  }
  const parsed = SignalSchema.safeParse(json);
  if (!parsed.success) {
    return { kind: "malformed", reason: describeIssue(parsed.error, "signal") };
  }
  return { kind: "ok", signal: parsed.data };
}

export function clearSignalFile(path: string): void {
  rmSync(path, { force: true });
}
