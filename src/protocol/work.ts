import { z } from "zod";
import { PermissionPolicySchema } from "./permission.ts";

/**
 * The work model: an initiative (a goal, its own branch) → phases (a dependency DAG the person
 * approves) → tasks (each worked by one agent on its own branch, merged back in order). Every
 * entity carries a `version` that grows with each change, so clients keep the newest of what
 * snapshots and events bring, in whatever order they arrive.
 */

export const AgentModeSchema = z.enum(["discuss", "plan", "detail", "execute", "refine"]);
export type AgentMode = z.infer<typeof AgentModeSchema>;

/** What each mode works on: discuss, plan and refine an initiative, detail a phase, execute a task. */
export const MODE_TARGET: Record<AgentMode, "initiative" | "phase" | "task"> = {
  discuss: "initiative",
  plan: "initiative",
  refine: "initiative",
  detail: "phase",
  execute: "task",
};

export const InitiativeStatusSchema = z.enum(["active", "completed", "archived"]);
export type InitiativeStatus = z.infer<typeof InitiativeStatusSchema>;

/** What the person approves: phases only (tasks auto-approved), phases and tasks, or nothing. */
export const ReviewPolicySchema = z.enum(["phases", "tasks", "none"]);

export const PhaseStatusSchema = z.enum(["proposed", "approved", "in_progress", "completed", "blocked", "rejected"]);
export type PhaseStatus = z.infer<typeof PhaseStatusSchema>;

export const TaskStatusSchema = z.enum(["proposed", "pending", "in_progress", "completed", "blocked", "failed", "rejected"]);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** A slug: what a proposal file is named, unique within its parent; part of `<initiative>/<slug>` refs. */
export const SlugSchema = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and dashes, at most 63");

/** How the daemon drives an initiative once `troupe dispatch` started it; null when it does not. */
export const DispatchSchema = z.object({
  concurrency: z.number().int().positive(),
  provider: z.string().min(1),
  model: z.string().min(1).nullable(),
  /** A shell command every run starts with (the generic provider): for scripts and tests. */
  command: z.string().min(1).nullable().default(null),
  startedAt: z.number().int(),
});

export const InitiativeSchema = z.object({
  id: z.string(),
  name: z.string(),
  slug: SlugSchema,
  goal: z.string(),
  /** A refine agent's revised goal, waiting for the person: approving the initiative accepts it. */
  proposedGoal: z.string().nullable(),
  status: InitiativeStatusSchema,
  /** The base as named (a branch, a tag, or a commit when none was named and HEAD was detached). */
  baseRef: z.string(),
  /** The commit the base named when the initiative began: its branch starts there, its diff is against it. */
  baseCommit: z.string(),
  /** `troupe-initiative/<slug>`: a prefix of its own, never an agent's `troupe/<name>`. */
  branch: z.string(),
  review: ReviewPolicySchema,
  dispatch: DispatchSchema.nullable(),
  /** At most this many US dollars over all its agents' runs; null: no limit. */
  budgetUsd: z.number().nullable(),
  /** What its agents reported spending (their costUsd summed); 0 before any reports. */
  spentUsd: z.number(),
  /** Why dispatch starts no new agent (its budget is spent); null while nothing holds it. */
  reason: z.string().nullable(),
  /** The permission policy its dispatched and mode agents inherit (under a spawn's and a profile's); null: none. */
  permissions: PermissionPolicySchema.nullable(),
  /** The pull request of its branch that `troupe initiative pr` opened or found; null: none yet. */
  prUrl: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Initiative = z.infer<typeof InitiativeSchema>;

export const PhaseSchema = z.object({
  id: z.string(),
  initiativeId: z.string(),
  slug: SlugSchema,
  title: z.string(),
  content: z.string(),
  status: PhaseStatusSchema,
  /** Phase ids of the same initiative. */
  dependsOn: z.array(z.string()),
  /** The agent whose plan proposed it; null when the person wrote it. */
  proposedBy: z.string().nullable(),
  /** Why it was rejected or blocked. */
  reason: z.string().nullable(),
  /** The host of the pool its tasks run on unless a task is pinned elsewhere (`troupe pin`); null: dispatch chooses. */
  pin: z.string().nullable(),
  version: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Phase = z.infer<typeof PhaseSchema>;

/** A run of a task on a host that went silent past its grace: placed again elsewhere; what it did there is recorded when the host comes back, never merged. */
export const LostRunSchema = z.object({
  host: z.string(),
  /** Its agent's name there, and its branch. */
  agent: z.string(),
  branch: z.string().nullable(),
  lostAt: z.number().int(),
  /** How it ended there (`done: <result>`, `failed: <why>`), once the host answered again; null until then. */
  outcome: z.string().nullable(),
});

export const TaskSchema = z.object({
  id: z.string(),
  initiativeId: z.string(),
  phaseId: z.string(),
  slug: SlugSchema,
  title: z.string(),
  description: z.string(),
  status: TaskStatusSchema,
  /** Task ids of the same phase. */
  dependsOn: z.array(z.string()),
  proposedBy: z.string().nullable(),
  /** The agent working (or that worked) it, and its branch. */
  agentId: z.string().nullable(),
  branch: z.string().nullable(),
  /** The agent's result when it signalled done. */
  summary: z.string().nullable(),
  /** Why it is blocked, failed or rejected. */
  reason: z.string().nullable(),
  /** Files a merge into the initiative branch conflicted on (blocked tasks). */
  conflicts: z.array(z.string()).nullable(),
  /** The globs of the files it owns (`files:`); null: no list, what its phase's other tasks do not list. */
  files: z.array(z.string()).nullable(),
  /** Why dispatch has not started it though it is ready (a task under way owns a file it needs). */
  waiting: z.string().nullable(),
  /** The host of the workspace's pool it was placed on (`local`, a remote's name); null: never placed, or no pool (this machine alone). */
  host: z.string().nullable(),
  /** Why there (`box: 1 of 2 slots free, has claude`), or that the person pinned it. */
  placement: z.string().nullable(),
  /** A host the person pinned it to (`troupe pin`), else its phase's; null: dispatch chooses. */
  pin: z.string().nullable(),
  /** Its runs on hosts lost mid-task, oldest first. */
  lostRuns: z.array(LostRunSchema),
  mergedAt: z.number().int().nullable(),
  version: z.number().int(),
  createdAt: z.number().int(),
  updatedAt: z.number().int(),
});
export type Task = z.infer<typeof TaskSchema>;

/** `troupe phases I --json`: the tree, as scripts read it. */
export const PhaseTreeSchema = z.object({
  initiative: InitiativeSchema,
  phases: z.array(
    PhaseSchema.pick({ id: true, slug: true, title: true, status: true, dependsOn: true, reason: true, pin: true }).extend({
      tasks: z.array(
        TaskSchema.pick({ id: true, slug: true, title: true, status: true, dependsOn: true, branch: true, summary: true, reason: true, conflicts: true, files: true, waiting: true, host: true, placement: true, pin: true, lostRuns: true }).extend({
          /** The working agent's name. */
          agent: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type PhaseTree = z.infer<typeof PhaseTreeSchema>;
