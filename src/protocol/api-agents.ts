import { z } from "zod";
import { AgentSchema } from "./entities.ts";
import { OutputChunkSchema } from "./output.ts";
import { PermissionModeSchema } from "./config.ts";

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

export const AgentResponseSchema = z.object({ agent: AgentSchema });
export const AgentsResponseSchema = z.object({ agents: z.array(AgentSchema) });
export const OutputResponseSchema = z.object({ chunks: z.array(OutputChunkSchema) });
