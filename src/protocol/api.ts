import { z } from "zod";
import { AgentSchema, ConversationSchema } from "./entities.ts";
import { OutputChunkSchema } from "./output.ts";
import { PermissionModeSchema } from "./config.ts";

/** Largest request body the daemon reads; a prompt file bigger than this is a mistake. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

const Env = z.record(z.string(), z.string());
const Name = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and dashes, at most 63");

export const SpawnRequestSchema = z.object({
  provider: z.string().min(1).default("generic"),
  command: z.string().min(1).optional(),
  prompt: z.string().optional(),
  name: Name.optional(),
  model: z.string().min(1).optional(),
  baseRef: z.string().min(1).optional(),
  worktree: z.boolean().default(true),
  /** skip: act without asking (headless default); edits: edit files only; plan: read-only. Unset: the workspace config's, else skip. */
  permissions: PermissionModeSchema.optional(),
  /** The spawning client's environment: agents get it, not the daemon's. */
  env: Env.default({}),
});
export type SpawnRequest = z.input<typeof SpawnRequestSchema>;

export const AnswerItemSchema = z.object({ id: z.string().min(1), answer: z.string() });
export const ResumeRequestSchema = z.object({
  answers: z.array(AnswerItemSchema).default([]),
  message: z.string().min(1).optional(),
  env: Env.optional(),
});
export type ResumeRequest = z.input<typeof ResumeRequestSchema>;

export const SignalRequestSchema = z.object({ signalFile: z.string().min(1) });

export const AskRequestSchema = z
  .object({
    question: z.string().min(1),
    to: z.string().min(1).optional(),
    user: z.boolean().optional(),
    task: z.string().min(1).optional(),
    phase: z.string().min(1).optional(),
    timeoutMs: z.number().int().positive().optional(),
  })
  .refine((r) => [r.to, r.user || undefined, r.task, r.phase].filter((x) => x !== undefined).length === 1, {
    message: "exactly one of to, user, task, phase",
  });
export type AskRequest = z.input<typeof AskRequestSchema>;

export const AnswerRequestSchema = z.object({ answer: z.string().min(1) });

export const HealthSchema = z.object({
  ok: z.literal(true),
  pid: z.number().int(),
  version: z.string(),
  workspace: z.string(),
  startedAt: z.number().int(),
});
export type Health = z.infer<typeof HealthSchema>;

export const AgentResponseSchema = z.object({ agent: AgentSchema });
export const AgentsResponseSchema = z.object({ agents: z.array(AgentSchema) });
export const ConversationResponseSchema = z.object({ conversation: ConversationSchema });
export const ConversationsResponseSchema = z.object({ conversations: z.array(ConversationSchema) });
export const ListenResponseSchema = z.object({ conversation: ConversationSchema.nullable() });
export const OutputResponseSchema = z.object({ chunks: z.array(OutputChunkSchema) });
export const OkSchema = z.object({ ok: z.literal(true) });
