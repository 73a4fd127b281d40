import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FailureClass, Provider } from "../../providers/types.ts";
import { OutputEventSchema, type OutputEvent, type Stream } from "../../src/protocol/output.ts";

export const FIXTURES = join(import.meta.dir, "..", "fixtures");

export interface Fixture {
  name: string;
  stdout: string[];
  stderr: string[];
  events: OutputEvent[];
  meta: { exitCode: number | null; argv: string[]; killedAtDeadlineMs?: number; fakeServerRequests?: string[] };
}

export function lines(text: string): string[] {
  return text.split("\n").filter((l) => l !== "");
}

export function fixtureCases(provider: string): string[] {
  return readdirSync(join(FIXTURES, provider))
    .filter((f) => f.endsWith(".meta.json"))
    .map((f) => f.replace(".meta.json", ""))
    .sort();
}

export function loadFixture(p: Provider, name: string): Fixture {
  const read = (ext: string) => readFileSync(join(FIXTURES, p.name, `${name}.${ext}`), "utf8");
  const stdout = lines(read("stdout.jsonl"));
  const stderr = lines(read("stderr.txt"));
  const parse = (ls: string[], stream: Stream) => ls.flatMap((l) => p.parseLine(l, stream));
  return { name, stdout, stderr, events: [...parse(stdout, "stdout"), ...parse(stderr, "stderr")], meta: JSON.parse(read("meta.json")) };
}

/** Every line yields schema-valid events and a line the parser leaves empty is valid JSON it knows. */
export function expectEveryLineParses(p: Provider, f: Fixture, check: (events: OutputEvent[], line: string) => void): void {
  for (const [ls, stream] of [[f.stdout, "stdout"], [f.stderr, "stderr"]] as const) {
    for (const line of ls) {
      const events = p.parseLine(line, stream);
      for (const e of events) {
        const parsed = OutputEventSchema.safeParse(e);
        if (!parsed.success) throw new Error(`invalid event from ${JSON.stringify(line)}: ${parsed.error.message}`);
      }
      check(events, line);
    }
  }
}

/**
 * The failure class the lifecycle would see: the first pattern (in the provider's order)
 * matching an error event, an error result or a stderr line.
 */
export function classify(p: Provider, f: Fixture): FailureClass | undefined {
  const texts = [
    ...f.events.flatMap((e) => (e.kind === "error" ? [e.message] : e.kind === "result" && e.isError && e.text ? [e.text] : [])),
    ...f.stderr,
  ];
  for (const { failure, pattern } of p.errorPatterns) if (texts.some((t) => pattern.test(t))) return failure;
  return undefined;
}

export const ofKind = <K extends OutputEvent["kind"]>(events: OutputEvent[], kind: K) =>
  events.filter((e): e is Extract<OutputEvent, { kind: K }> => e.kind === kind);

export const baseInput = { prompt: "fix the bug", cwd: "/repo", env: {} } as const;
