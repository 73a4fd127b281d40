import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FailureClass, Provider } from "../../providers/types.ts";
import { diagnose } from "../../src/agents/lifecycle/diagnose.ts";
import type { OutputChunk, OutputEvent, Stream } from "../../src/protocol/output.ts";

export const FIXTURES = join(import.meta.dir, "..", "fixtures");

export interface Fixture {
  name: string;
  stdout: string[];
  stderr: string[];
  events: OutputEvent[];
  meta: { exitCode: number | null; argv: string[]; killedAtDeadlineMs?: number; fakeServerRequests?: string[] };
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

/** The recorded cases of a provider (`<case>.meta.json`); none for a CLI not recorded here. */
export function fixtureCases(provider: string): string[] {
  const dir = join(FIXTURES, provider);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".meta.json"))
    .map((f) => f.replace(".meta.json", ""))
    .sort();
}

function read(provider: string, name: string, ext: string): string {
  const path = join(FIXTURES, provider, `${name}.${ext}`);
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}

export function loadFixture(p: Provider, name: string): Fixture {
  const stdout = lines(read(p.name, name, "stdout.jsonl"));
  const stderr = lines(read(p.name, name, "stderr.txt"));
  const parse = (ls: string[], stream: Stream) => ls.flatMap((l) => p.parseLine(l, stream));
  return { name, stdout, stderr, events: [...parse(stdout, "stdout"), ...parse(stderr, "stderr")], meta: JSON.parse(read(p.name, name, "meta.json")) };
}

/** A recorded run as the daemon stores it: its stdout, then its stderr. */
export function fixtureChunks(provider: string, name: string): OutputChunk[] {
  return [
    { id: 1, agentId: "ag", session: 1, stream: "stdout", data: read(provider, name, "stdout.jsonl"), createdAt: 0 },
    { id: 2, agentId: "ag", session: 1, stream: "stderr", data: read(provider, name, "stderr.txt"), createdAt: 0 },
  ];
}

export const ofKind = <K extends OutputEvent["kind"]>(events: OutputEvent[], kind: K) =>
  events.filter((e): e is Extract<OutputEvent, { kind: K }> => e.kind === kind);

export const baseInput = { prompt: "fix the bug", cwd: "/repo", env: {} } as const;

/** What diagnose() makes of one line of stderr: how a provider's error patterns are tested. */
export function failureOf(p: Provider, stderrLine: string): FailureClass | undefined {
  return diagnose(p, [{ id: 1, agentId: "ag", session: 1, stream: "stderr", data: `${stderrLine}\n`, createdAt: 0 }])?.failure;
}
