import { z } from "zod";
import { PlanEntrySchema } from "./output.ts";
import { PERMISSION_MODES } from "./permission-modes.ts";
import { AgentModeSchema } from "./work.ts";
import { AGENT_STATUSES } from "./status.ts";
import { FailureSchema } from "./failure.ts";
import { AgentSandboxSchema } from "./sandbox.ts";

/** How an agent may act without asking (the list and what each means: permission-modes.ts). */
export const PermissionModeSchema = z.enum(PERMISSION_MODES);

export const AgentStatusSchema = z.enum(AGENT_STATUSES);
export type { AgentStatus } from "./status.ts";

export const QuestionSchema = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
});
export type Question = z.infer<typeof QuestionSchema>;

export const AgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  status: AgentStatusSchema,
  prompt: z.string().nullable(),
  command: z.string().nullable(),
  model: z.string().nullable(),
  permissions: PermissionModeSchema,
  cwd: z.string(),
  worktree: z.string().nullable(),
  branch: z.string().nullable(),
  baseRef: z.string().nullable(),
  pid: z.number().int().nullable(),
  session: z.number().int(),
  providerSessionId: z.string().nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  questions: z.array(QuestionSchema).nullable(),
  exitCode: z.number().int().nullable(),
  costUsd: z.number().nullable(),
  inputTokens: z.number().int().nullable(),
  outputTokens: z.number().int().nullable(),
  /** The work-model run this is (plan, detail, execute, ...); null for a plain agent. */
  mode: AgentModeSchema.nullable(),
  initiativeId: z.string().nullable(),
  taskId: z.string().nullable(),
  phaseId: z.string().nullable(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
  lastActivityAt: z.number().int().nullable(),
  /** The agent that spawned it; null when the person did. */
  parentId: z.string().nullable(),
  /** It ended with changes in its worktree it did not commit when asked: nothing of it is removed. */
  uncommitted: z.boolean(),
  /**
   * Why the last failed attempt of its current run failed: while a retry waits, when it failed for
   * good, and after a retry succeeded (its `attempt` is then below the agent's). Null when no
   * attempt failed since the person last started it.
   */
  failure: FailureSchema.nullable(),
  /** When the next attempt starts (epoch ms); the agent is `starting` meanwhile. */
  retryAt: z.number().int().nullable(),
  /** The attempt of the current run: 1, then one more per automatic retry or recovery. */
  attempt: z.number().int().positive(),
  /** Spend limit in USD (null: none). */
  budgetUsd: z.number().nullable(),
  /** The user account it runs on (`troupe account ls`); null: the spawning environment's credential. */
  accountId: z.string().nullable(),
  /** Its permission requests waiting for the person (src/permissions/): above 0 it needs the person. */
  pendingPermissions: z.number().int().nonnegative(),
  /** Its plan as it last reported it (an ACP agent's `plan` updates), entries with their status; null: it reported none. */
  plan: z.array(PlanEntrySchema).nullable(),
  /** What its current (or last) session runs in (src/sandbox/); null: launched by a troupe before sandboxes. */
  sandbox: AgentSandboxSchema.nullable(),
  /** The pull request of its branch that `troupe pr` opened or found; null: none yet. */
  prUrl: z.string().nullable(),
  /** The ports its worktree holds (the workspace config's `ports`), as `PORT` and `TROUPE_PORT_1..n` in its environment; empty: none. */
  ports: z.array(z.number().int()),
});
export type Agent = z.infer<typeof AgentSchema>;

export * from "./conversation.ts";
