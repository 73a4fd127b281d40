import type { OutputChunk, UsageWindow } from "../../protocol/output.ts";
import type { AgentPatch, OutputContext } from "../../store/agents.ts";
import type { ChunkRepo } from "../../store/chunks.ts";
import { chunkLines, type LineParser } from "../../output/lines.ts";
import type { InputSeen } from "../deps.ts";

type Known = Omit<OutputContext, "provider">;

const add = (a: number | null | undefined, b: number) => (a ?? 0) + b;

/** What an output chunk tells about its agent: `patch` for its record, `input` for its session's input stream. */
export interface ChunkNews {
  patch: AgentPatch;
  input: InputSeen;
  /** The run's cost as its last result put it (a CLI that takes input mid-run reports it summed over the run's turns). */
  runCost: number;
  /** The account's usage windows as the chunk's last report put them; null when it reported none. */
  usage: UsageWindow[] | null;
}

/**
 * What an output chunk tells about its agent: provider session id, and cost and tokens summed over
 * runs; and, for its input stream, the lines the CLI took (their echoes) and whether a turn ended
 * (a result); and the account's usage windows. `known` (what the store holds) is read only when a line says something: most lines do not.
 * `priorRunCost`: what earlier results of the same run reported (read only at a result); each
 * result adds only what it grew by.
 */
export function outputNews(parse: LineParser, chunk: OutputChunk, known: () => Known | null, priorRunCost: number | (() => number) = 0): ChunkNews {
  const patch: AgentPatch = {};
  const input: InputSeen = { taken: [], turnEnded: false };
  let runCost: number | null = typeof priorRunCost === "number" ? priorRunCost : null;
  const soFar = () => (runCost ??= (priorRunCost as () => number)());
  let usage: UsageWindow[] | null = null;
  if (chunk.stream === "troupe") return { patch, input, runCost: runCost ?? 0, usage };
  let rec: Known | null | undefined;
  for (const line of chunkLines(chunk)) {
    if (!line) continue;
    for (const ev of parse(line, chunk.stream)) {
      // a line taken after a result began the next turn: the chunk ends with a turn under way
      if (ev.kind === "input" && ev.id !== undefined) {
        input.taken.push(ev.id);
        input.turnEnded = false;
      }
      if (ev.kind === "result") input.turnEnded = true;
      if (ev.kind === "usage") usage = ev.windows;
      // the last plan of the chunk is the agent's plan (each update is the whole plan)
      if (ev.kind !== "session" && ev.kind !== "result" && ev.kind !== "plan") continue;
      if (rec === undefined) rec = known();
      if (ev.kind === "plan") patch.plan = ev.entries;
      if (!rec) continue;
      if (ev.kind === "session" && ev.sessionId !== rec.providerSessionId) patch.providerSessionId = ev.sessionId;
      if (ev.kind === "result") {
        if (ev.costUsd !== undefined) {
          patch.costUsd = add(patch.costUsd ?? rec.costUsd, Math.max(0, ev.costUsd - soFar()));
          runCost = Math.max(soFar(), ev.costUsd);
        }
        if (ev.inputTokens !== undefined) patch.inputTokens = add(patch.inputTokens ?? rec.inputTokens, ev.inputTokens);
        if (ev.outputTokens !== undefined) patch.outputTokens = add(patch.outputTokens ?? rec.outputTokens, ev.outputTokens);
      }
    }
  }
  return { patch: rec ? patch : {}, input, runCost: runCost ?? 0, usage };
}

/** How many stored chunks back a restarted daemon looks for the run's last result (one page at most). */
const PRIOR_CHUNKS = 2000;

/**
 * The run's cost as its last stored result put it, before `chunk`: what a daemon that did not
 * see the run's earlier turns (it was restarted meanwhile) counts a result's growth from.
 */
export function storedRunCost(chunks: ChunkRepo, parse: LineParser, chunk: OutputChunk): number {
  const earlier = chunks.list(chunk.agentId, { before: chunk.id, session: chunk.session, limit: PRIOR_CHUNKS });
  for (let i = earlier.length - 1; i >= 0; i--) {
    if (earlier[i]!.stream !== "stdout") continue;
    const lines = chunkLines(earlier[i]!);
    for (let j = lines.length - 1; j >= 0; j--) {
      const cost = parse(lines[j]!, "stdout").find((ev) => ev.kind === "result")?.costUsd;
      if (cost !== undefined) return cost;
    }
  }
  return 0;
}
