import { z } from "zod";
import { AgentSchema } from "./entities.ts";
import { OutputChunkSchema } from "./output.ts";
import { PermissionModeSchema } from "./entities.ts";
import { SignalSchema } from "./signal.ts";
import { ProfileNameSchema } from "./profile.ts";
import { PermissionRuleSchema } from "./permission.ts";
import { DiffLineSchema } from "./review.ts";
import { NetworkPolicySchema, SandboxModeSchema } from "./sandbox.ts";
import { AgentModeSchema } from "./work.ts";

const NUL_MESSAGE = "must not contain a NUL byte (a process's arguments and environment cannot hold one)";
/** Text that reaches a process's argv or environment: the kernel ends a string at NUL, and spawn refuses it. */
export const ProcessTextSchema = z.string().refine((s) => !s.includes("\0"), NUL_MESSAGE);
/** An environment; a bad entry is named by its variable (a NUL in the name itself shown as \0). */
export const Env = z.record(z.string(), z.string()).superRefine((env, ctx) => {
  for (const [key, value] of Object.entries(env)) {
    if (key.includes("\0") || value.includes("\0")) ctx.addIssue({ code: "custom", path: [key.replaceAll("\0", "\\0")], message: NUL_MESSAGE });
  }
});
/** A file of an agent's input folder, by its path in that folder: relative, never leaving it. */
const InputFileSchema = z.object({
  path: z
    .string()
    .min(1)
    .max(200)
    .refine((p) => !p.startsWith("/") && !p.split("/").includes("..") && !p.includes("\0"), "a path inside the input folder (relative, no '..')")
    .refine((p) => p !== "prompt.md" && p !== "manifest.json", "prompt.md and manifest.json are troupe's own"),
  content: z.string().max(4 * 1024 * 1024),
});

/**
 * A mode run another daemon's dispatch placed on this host of its pool (src/work/host-tasks.ts):
 * the agent gets the mode's prompt and these input files as a mode run there would; it is a plain
 * agent here (the work it does is that daemon's), and its branch goes back by git.
 */
export const HostedRunSchema = z.object({
  mode: AgentModeSchema,
  /** The ids of that daemon's work model the prompt names. */
  initiativeId: z.string().min(1).max(64),
  phaseId: z.string().min(1).max(64).nullable(),
  taskId: z.string().min(1).max(64).nullable(),
  files: z.array(InputFileSchema).max(64),
});

const Name = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lowercase letters, digits and dashes, at most 63");

export const SpawnRequestSchema = z.object({
  /** Unset: the profile's, else generic. */
  provider: z.string().min(1).optional(),
  /** A profile (`troupe profile ls`): its provider, model, permissions, tools and instructions, under this request's own fields. */
  profile: ProfileNameSchema.optional(),
  command: ProcessTextSchema.min(1).optional(),
  prompt: ProcessTextSchema.optional(),
  name: Name.optional(),
  model: ProcessTextSchema.min(1).optional(),
  baseRef: ProcessTextSchema.min(1).optional(),
  worktree: z.boolean().default(true),
  /** skip: act without asking (headless default); edits: edit files only; plan: read-only. Unset: the workspace config's, else skip. */
  permissions: PermissionModeSchema.optional(),
  /** Permission rules (`Bash(npm test*)`, `Edit(src/**)`, `Read`) over the profile's, initiative's and configs' (src/permissions/rules.ts). */
  allow: z.array(PermissionRuleSchema).optional(),
  deny: z.array(PermissionRuleSchema).optional(),
  /** The spawning client's environment: agents get it, not the daemon's. */
  env: Env.default({}),
  /** Spend limit in USD over all the agent's runs: past it the agent is stopped and fails (`budget`). */
  budgetUsd: z.number().positive().optional(),
  /** How long its run is expected to take: an account forecast to run out sooner is passed over while another lasts (src/accounts/forecast.ts). */
  expectedMs: z.number().int().positive().optional(),
  /** Wall-clock limit per run, and the limit without output; unset: the workspace config's. */
  timeoutMs: z.number().int().positive().optional(),
  idleTimeoutMs: z.number().int().positive().optional(),
  /** The user account (name or id) it runs on; unset: the provider's least recently used available one, if it has any. */
  account: z.string().min(1).max(128).optional(),
  /** Its sandbox (src/sandbox/) and network policy, over the user's and workspace's configs; an agent's worker gets at least its own. */
  sandbox: SandboxModeSchema.optional(),
  network: NetworkPolicySchema.optional(),
  hosted: HostedRunSchema.optional(),
  /**
   * Who its commits are by where its environment names no one (GIT_AUTHOR_*, GIT_COMMITTER_*): a
   * task another daemon dispatched here, whose environment is this host's (`troupe proxy` gives
   * agents the host's own), is the person's who dispatched it.
   */
  gitIdentity: z.object({ name: z.string().min(1).max(200), email: z.string().min(1).max(200) }).optional(),
});
export type SpawnRequest = z.input<typeof SpawnRequestSchema>;

export const AnswerItemSchema = z.object({ id: z.string().min(1), answer: ProcessTextSchema });
export const ResumeRequestSchema = z.object({
  answers: z.array(AnswerItemSchema).default([]),
  message: ProcessTextSchema.min(1).optional(),
  env: Env.optional(),
});
export type ResumeRequest = z.input<typeof ResumeRequestSchema>;

/** `POST /v1/signal`: the signal itself; the daemon stores it as the calling agent's. */
export const SignalRequestSchema = SignalSchema;
export type SignalRequest = z.input<typeof SignalRequestSchema>;

export const AgentResponseSchema = z.object({ agent: AgentSchema });
export const AgentsResponseSchema = z.object({ agents: z.array(AgentSchema) });
export const OutputResponseSchema = z.object({ chunks: z.array(OutputChunkSchema) });
/**
 * An agent's diff as lines, each with what it is (a section's heading, a file's header, a hunk, a
 * line of code with its numbers): committed on its branch since its base, then uncommitted in its
 * folder, each under a `── ... ──` heading.
 */
export const AgentDiffResponseSchema = z.object({ lines: z.array(DiffLineSchema) });

/**
 * `POST /v1/agents/:ref/attach` (the person only): the agent is now `attached` in a new session,
 * and the client is to run `argv` in `cwd` with `env` on the person's terminal. `env` is the
 * agent's environment (its API keys among it): a client passes it to the process, never prints it.
 */
export const AttachmentSchema = z.object({
  agent: AgentSchema,
  session: z.number().int().positive(),
  argv: z.array(z.string()).min(1),
  cwd: z.string().min(1),
  env: z.record(z.string(), z.string()),
});
export type Attachment = z.infer<typeof AttachmentSchema>;
export const AttachResponseSchema = z.object({ attachment: AttachmentSchema });

/** `POST /v1/agents/:ref/attach/pid`: the interactive CLI runs as `pid`; the daemon watches it end. */
export const AttachPidRequestSchema = z.object({ session: z.number().int().positive(), pid: z.number().int().positive() });
/** `POST /v1/agents/:ref/detach`: the interactive CLI of `session` exited (its status, if known). */
export const DetachRequestSchema = z.object({ session: z.number().int().positive(), exitCode: z.number().int().nullable().default(null) });
