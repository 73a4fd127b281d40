import { PermissionPolicySchema } from "./permission.ts";
import { z } from "zod";
import { ProcessTextSchema } from "./api-agents.ts";
import { AgentSchema } from "./entities.ts";
import { EditedFilesSchema } from "./proposals.ts";
import { AgentModeSchema, InitiativeSchema, PhaseSchema, PhaseTreeSchema, ReviewPolicySchema, TaskSchema } from "./work.ts";

const Env = z.record(z.string(), z.string());

export const InitiativeCreateRequestSchema = z.object({
  name: z.string().trim().min(1).max(200),
  /** Markdown: what the initiative must achieve. */
  goal: z.string().trim().min(1),
  baseRef: z.string().min(1).optional(),
  review: ReviewPolicySchema.default("phases"),
  /** Spend limit in USD over all its agents: past it dispatch starts no new agent. */
  budgetUsd: z.number().positive().optional(),
  /** The permission policy its agents inherit (`initiative new --permissions/--allow/--deny`). */
  permissions: PermissionPolicySchema.optional(),
});
export type InitiativeCreateRequest = z.input<typeof InitiativeCreateRequestSchema>;

/** `troupe initiative budget I USD`: the initiative's new limit (the person's). */
export const BudgetRequestSchema = z.object({ budgetUsd: z.number().positive() });
export type BudgetRequest = z.input<typeof BudgetRequestSchema>;

/** `troupe discuss|plan|refine I`, `troupe detail PHASE`: an agent of that mode (as `spawn`). */
export const ModeRunRequestSchema = z.object({
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** A shell command to run as the agent (the generic provider), with the mode's prompt in $TROUPE_PROMPT. */
  command: ProcessTextSchema.min(1).optional(),
  /** The spawning client's environment, as for spawn. */
  env: Env.default({}),
});
export type ModeRunRequest = z.input<typeof ModeRunRequestSchema>;

/** Phase or task ids/refs; or every proposed phase and task of one initiative. */
export const ApproveRequestSchema = z
  .object({ ids: z.array(z.string().min(1)).default([]), all: z.string().min(1).optional() })
  .refine((r) => (r.ids.length > 0) !== (r.all !== undefined), { message: "give ids, or all: INITIATIVE" });
export type ApproveRequest = z.input<typeof ApproveRequestSchema>;

export const RejectRequestSchema = z.object({
  reason: z.string().trim().min(1),
  /** Resume the proposing agent with the reason, to propose again. */
  revise: z.boolean().default(false),
});
export type RejectRequest = z.input<typeof RejectRequestSchema>;

/** A proposed phase or task as edited by the person (`troupe edit`): the same front matter + body. */
export const EditRequestSchema = z.object({
  title: z.string().trim().min(1).optional(),
  body: z.string().optional(),
  /** Slugs or ids of phases (for a phase) or tasks of the same phase (for a task). */
  dependsOn: z.array(z.string().min(1)).optional(),
  /** A task's files (globs relative to the repository root); null drops its list. */
  files: EditedFilesSchema,
});
export type EditRequest = z.input<typeof EditRequestSchema>;

/** `troupe pin`: the host of the pool a phase's tasks or a task run on; null lets dispatch choose again. */
export const PinRequestSchema = z.object({
  host: z.string().min(1).max(64).nullable(),
});
export type PinRequest = z.input<typeof PinRequestSchema>;

export const DispatchRequestSchema = z.object({
  concurrency: z.number().int().positive().max(64).default(4),
  provider: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  /** A shell command every run starts with (the generic provider, its prompt in $TROUPE_PROMPT): for scripts and tests. */
  command: z.string().min(1).optional(),
  /** The dispatching person's environment (git identity included): every run and merge uses it. */
  env: Env.default({}),
});
export type DispatchRequest = z.input<typeof DispatchRequestSchema>;

export const InitiativeResponseSchema = z.object({ initiative: InitiativeSchema });
export const InitiativesResponseSchema = z.object({ initiatives: z.array(InitiativeSchema) });
export const PhaseTreeResponseSchema = z.object({ tree: PhaseTreeSchema });
/** What an approve, reject, edit or read of work items touched (an initiative when its proposed goal was). */
export const WorkItemsResponseSchema = z.object({
  initiatives: z.array(InitiativeSchema).default([]),
  phases: z.array(PhaseSchema),
  tasks: z.array(TaskSchema),
});
export type WorkItems = z.infer<typeof WorkItemsResponseSchema>;
export const TaskResponseSchema = z.object({ task: TaskSchema });
export const ModeRunResponseSchema = z.object({ agent: AgentSchema });
/** `troupe prompt`: what an agent of a mode gets, whole and block by block; `placeholder` when no target was named. */
export const ModePromptResponseSchema = z.object({
  mode: AgentModeSchema,
  provider: z.string(),
  placeholder: z.boolean(),
  prompt: z.string(),
  blocks: z.array(z.object({ id: z.string(), text: z.string() })),
});
export type ModePromptResponse = z.infer<typeof ModePromptResponseSchema>;
export const DiffResponseSchema = z.object({ diff: z.string() });
