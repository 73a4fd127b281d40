import { z } from "zod";
import { ProcessTextSchema } from "./api-agents.ts";
import { ProfileNameSchema } from "./profile.ts";

export const FlowNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and dashes, at most 63");

/** A scheduled flow: at each cron time, its gate (if any) decides, then one agent runs its prompt. */
export const FlowSchema = z.object({
  id: z.string(),
  name: FlowNameSchema,
  cron: z.string(),
  profile: z.string().nullable(),
  provider: z.string().nullable(),
  prompt: z.string(),
  gate: z.string().nullable(),
  enabled: z.boolean(),
  /** When it is due next (ms); null when disabled or the expression has no future time. */
  nextRunAt: z.number().int().nullable(),
  lastRunAt: z.number().int().nullable(),
  /** The agent its last run started. */
  lastAgentId: z.string().nullable(),
  /** What its last run did: `started <agent>`, `skipped: ...`, `failed: ...`. */
  lastOutcome: z.string().nullable(),
  createdAt: z.number().int(),
});
export type Flow = z.infer<typeof FlowSchema>;

export const FlowAddRequestSchema = z
  .object({
    name: FlowNameSchema,
    cron: z.string().min(1),
    profile: ProfileNameSchema.optional(),
    provider: z.string().min(1).optional(),
    prompt: ProcessTextSchema.min(1),
    /** A shell command run before each run; its JSON output decides and fills `[[var]]`s. */
    gate: ProcessTextSchema.min(1).optional(),
    /** The adding client's environment: every run (and its gate) gets it. */
    env: z.record(z.string(), ProcessTextSchema).default({}),
  })
  .refine((r) => (r.profile === undefined) !== (r.provider === undefined), { message: "give a profile or a provider (one of them)", path: ["profile"] });
export type FlowAddRequest = z.input<typeof FlowAddRequestSchema>;

export const FlowResponseSchema = z.object({ flow: FlowSchema });
export const FlowsResponseSchema = z.object({ flows: z.array(FlowSchema) });
/** `POST /v1/flows/:name/run`: what the run did. */
export const FlowRunResponseSchema = z.object({ flow: FlowSchema, outcome: z.string(), agentId: z.string().nullable() });
export type FlowRunResult = z.infer<typeof FlowRunResponseSchema>;
