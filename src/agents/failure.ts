import type { OutputChunk } from "../protocol/output.ts";
import type { FailureClass, Provider } from "../../providers/types.ts";
import { chunkLines } from "../output/lines.ts";
import { parserFor } from "../output/render.ts";

export interface Diagnosis {
  failure: FailureClass;
  /** The line that showed it, trimmed to one line. */
  evidence: string;
}

const MAX_EVIDENCE = 200;

/**
 * Why a run failed, from the end of its output: the provider's error events, failed results
 * and stderr, checked against its error patterns (in their order). Pure; null when nothing matches.
 */
export function diagnose(provider: Provider, chunks: readonly OutputChunk[]): Diagnosis | null {
  const parse = parserFor(provider.name);
  const candidates: string[] = [];
  for (const chunk of chunks) {
    for (const line of chunkLines(chunk)) {
      for (const ev of parse(line, chunk.stream)) {
        if (ev.kind === "error") candidates.push(ev.message);
        else if (ev.kind === "result" && ev.isError && ev.text) candidates.push(ev.text);
        else if (ev.kind === "raw" && chunk.stream === "stderr") candidates.push(ev.line);
      }
    }
  }
  // the last evidence is the most telling: a run may recover from earlier errors
  for (const text of candidates.reverse()) {
    const hit = provider.errorPatterns.find((p) => p.pattern.test(text));
    if (hit) {
      const flat = text.replace(/\s+/g, " ").trim();
      return { failure: hit.failure, evidence: flat.length > MAX_EVIDENCE ? `${flat.slice(0, MAX_EVIDENCE - 1)}…` : flat };
    }
  }
  return null;
}

const LABEL: Record<FailureClass, string> = {
  auth: "not logged in or bad credentials",
  usage_limit: "usage limit reached",
  network: "cannot reach the provider",
  timeout: "timed out",
  crash: "the CLI refused to run",
};

export function describeFailure(d: Diagnosis): string {
  return `${LABEL[d.failure]} (${d.failure}): ${d.evidence}`;
}
