import { z } from "zod";
import { FailureClassSchema } from "./failure.ts";

/** One entry of an agent's plan (ACP's `plan` update): what it will do, and how far it got. */
export const PlanEntrySchema = z.object({
  content: z.string(),
  status: z.enum(["pending", "in_progress", "completed"]),
  priority: z.enum(["high", "medium", "low"]).optional(),
});
export type PlanEntry = z.infer<typeof PlanEntrySchema>;

/**
 * One of an account's usage windows as the provider reported it (Claude's rate-limit event: the
 * API's `anthropic-ratelimit-unified-*` headers): how much of it is used (1 = all) and when it resets (epoch ms).
 */
export const UsageWindowSchema = z.object({
  window: z.string(),
  utilization: z.number().nonnegative(),
  resetsAt: z.number().int(),
});
export type UsageWindow = z.infer<typeof UsageWindowSchema>;

/** What a provider parser turns an output line into; the dashboard and `troupe logs` render these. */
export const OutputEventSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("session"), sessionId: z.string(), model: z.string().optional() }),
  /**
   * Assistant text. `delta` marks one streamed piece of a message (Gemini CLI sends a word at a
   * time): consecutive deltas are one paragraph, joined as they are, not one line each.
   */
  z.object({ kind: z.literal("text"), text: z.string(), delta: z.boolean().optional() }),
  z.object({ kind: z.literal("tool_use"), id: z.string().optional(), name: z.string(), input: z.string() }),
  z.object({ kind: z.literal("tool_result"), id: z.string().optional(), output: z.string(), isError: z.boolean() }),
  z.object({
    kind: z.literal("result"),
    text: z.string().optional(),
    isError: z.boolean(),
    /** Why an ACP turn ended, where not at the agent's own end (`cancelled`: stopped, or a request rejected). */
    stopReason: z.string().optional(),
    costUsd: z.number().optional(),
    inputTokens: z.number().optional(),
    outputTokens: z.number().optional(),
  }),
  /**
   * An error the CLI reported. `failure` is set when the CLI said the class in a structured way
   * (an HTTP status, an error type): it wins over text patterns. `resetsAt` (epoch ms): when a
   * spent quota comes back.
   */
  z.object({ kind: z.literal("error"), message: z.string(), failure: FailureClassSchema.optional(), resetsAt: z.number().int().optional() }),
  /**
   * A user message the CLI took in while it ran (its echo of a line troupe wrote to its stdin,
   * the prompt included): `id` is the one troupe gave the line, when it gave one.
   */
  z.object({ kind: z.literal("input"), text: z.string(), id: z.string().optional() }),
  /** The agent's plan, whole, each time it changes (an ACP agent's `plan` update): the agent's record keeps the last. */
  z.object({ kind: z.literal("plan"), entries: z.array(PlanEntrySchema) }),
  /** The run's account's usage windows, each time the provider reports them (the forecast of src/accounts/forecast.ts reads them). */
  z.object({ kind: z.literal("usage"), windows: z.array(UsageWindowSchema) }),
  /** A line the parser did not recognise: kept verbatim, never dropped. */
  z.object({ kind: z.literal("raw"), line: z.string() }),
]);
export type OutputEvent = z.infer<typeof OutputEventSchema>;

/**
 * Where a stored piece of output came from: the CLI's stdout or stderr, or troupe itself (a note
 * among the output, such as where older output was dropped under the cap: never the agent's words).
 */
const StreamSchema = z.enum(["stdout", "stderr", "troupe"]);
export type Stream = z.infer<typeof StreamSchema>;
/** The two files a CLI writes, which the daemon tails. */
export type FileStream = Exclude<Stream, "troupe">;

/** One stored piece of an agent's output: whole lines only, as written. */
export const OutputChunkSchema = z.object({
  id: z.number().int(),
  agentId: z.string(),
  session: z.number().int(),
  stream: StreamSchema,
  data: z.string(),
  createdAt: z.number().int(),
});
export type OutputChunk = z.infer<typeof OutputChunkSchema>;
