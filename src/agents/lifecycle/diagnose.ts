import type { OutputChunk } from "../../protocol/output.ts";
import type { FailureClass } from "../../protocol/failure.ts";
import type { Provider } from "../../../providers/types.ts";
import { chunkLines } from "../../output/lines.ts";
import { parserFor } from "../../output/render.ts";

export interface Diagnosis {
  failure: FailureClass;
  /** The line that showed it, trimmed to one line. */
  evidence: string;
  /** When a spent quota comes back (epoch ms), when the provider said so. */
  resetsAt?: number;
}

const MAX_EVIDENCE = 200;

interface Candidate {
  text: string;
  failure?: FailureClass;
  resetsAt?: number;
}

export function oneLineEvidence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_EVIDENCE ? `${flat.slice(0, MAX_EVIDENCE - 1)}…` : flat;
}

/**
 * Why a run failed, from the end of its output. The provider's own structured signals come
 * first (an error type, an HTTP status, a rejected rate-limit event: `failure` on its error
 * events), the last one winning; then the text of error events, failed results and stderr
 * against its error patterns (in their order), last line first. A spent quota (`usage_limit`)
 * anywhere in the run outranks a `rate_limit` the CLI reports for the same 429. Pure; null when
 * nothing is known.
 */
export function diagnose(provider: Provider, chunks: readonly OutputChunk[]): Diagnosis | null {
  const parse = parserFor(provider.name);
  const candidates: Candidate[] = [];
  for (const chunk of chunks) {
    // troupe's own notes are no evidence of the CLI's
    if (chunk.stream === "troupe") continue;
    for (const line of chunkLines(chunk)) {
      for (const ev of parse(line, chunk.stream)) {
        if (ev.kind === "error") candidates.push({ text: ev.message, failure: ev.failure, resetsAt: ev.resetsAt });
        else if (ev.kind === "result" && ev.isError && ev.text) candidates.push({ text: ev.text });
        else if (ev.kind === "raw" && chunk.stream === "stderr") candidates.push({ text: ev.line });
      }
    }
  }
  // the last evidence is the most telling: a run may recover from earlier errors
  const latest = [...candidates].reverse();
  const structured = latest.find((c) => c.failure);
  if (structured?.failure) {
    const quota = structured.failure === "rate_limit" ? latest.find((c) => c.failure === "usage_limit") : undefined;
    if (quota) return withReset({ failure: "usage_limit", evidence: oneLineEvidence(structured.text) }, quota.resetsAt);
    return withReset({ failure: structured.failure, evidence: oneLineEvidence(structured.text) }, structured.resetsAt);
  }
  for (const c of latest) {
    const hit = provider.errorPatterns.find((p) => p.pattern.test(c.text));
    if (hit) return { failure: hit.failure, evidence: oneLineEvidence(c.text) };
  }
  return null;
}

const withReset = (d: Diagnosis, resetsAt: number | undefined): Diagnosis => (resetsAt === undefined ? d : { ...d, resetsAt });

const LABEL: Record<FailureClass, string> = {
  auth: "not logged in or bad credentials",
  usage_limit: "usage limit reached",
  rate_limit: "rate limited",
  overloaded: "the provider is overloaded",
  network: "cannot reach the provider",
  timeout: "timed out",
  crash: "the CLI crashed",
  interrupted: "killed from outside",
  missing_signal: "ended without a signal",
  bad_output: "malformed output",
  budget: "over budget",
  setup: "the CLI refused to run",
  unknown: "failed",
};

export function describeFailure(d: Diagnosis): string {
  return `${LABEL[d.failure]} (${d.failure}): ${d.evidence}`;
}
