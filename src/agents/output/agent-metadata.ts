import type { OutputChunk } from "../../protocol/output.ts";
import type { AgentPatch, OutputContext } from "../../store/agents.ts";
import { chunkLines, type LineParser } from "../../output/lines.ts";

type Known = Omit<OutputContext, "provider">;

const add = (a: number | null | undefined, b: number) => (a ?? 0) + b;

/**
 * What an output chunk tells about its agent: provider session id, and cost and tokens summed over
 * runs. `known` (what the store holds) is read only when a line says something: most lines do not.
 */
export function outputMetadata(parse: LineParser, chunk: OutputChunk, known: () => Known | null): AgentPatch {
  const patch: AgentPatch = {};
  if (chunk.stream === "troupe") return patch;
  let rec: Known | null = null;
  for (const line of chunkLines(chunk)) {
    if (!line) continue;
    for (const ev of parse(line, chunk.stream)) {
      if (ev.kind !== "session" && ev.kind !== "result") continue;
      rec ??= known();
      if (!rec) return {};
      if (ev.kind === "session" && ev.sessionId !== rec.providerSessionId) patch.providerSessionId = ev.sessionId;
      if (ev.kind === "result") {
        if (ev.costUsd !== undefined) patch.costUsd = add(patch.costUsd ?? rec.costUsd, ev.costUsd);
        if (ev.inputTokens !== undefined) patch.inputTokens = add(patch.inputTokens ?? rec.inputTokens, ev.inputTokens);
        if (ev.outputTokens !== undefined) patch.outputTokens = add(patch.outputTokens ?? rec.outputTokens, ev.outputTokens);
      }
    }
  }
  return patch;
}
