import { z } from "zod";
import { Env } from "./api-agents.ts";

/** A git remote's or branch's name as troupe passes it to git: never an option (no leading `-`), never a URL. */
const GIT_NAME = /^[A-Za-z0-9_.][A-Za-z0-9_./-]*$/;

/** A git remote's name as `git push` takes it: never an option, never a URL of the caller's choosing. */
const RemoteNameSchema = z.string().min(1).max(100).regex(GIT_NAME, "a git remote's name (letters, digits, . _ / -), such as origin");

/** Push an agent's or an initiative's branch to a remote of the repository. */
export const PushRequestSchema = z.object({
  /** The repository's git remote: `origin` when absent. */
  remote: RemoteNameSchema.optional(),
  /** The person's environment: git (its credential helpers, ssh, SSH_AUTH_SOCK) and gh run with it, and GH_TOKEN is read from it. */
  env: Env.default({}),
});

/** Push, then open a pull request of the branch against the one it started from. */
export const PullRequestRequestSchema = PushRequestSchema.extend({
  draft: z.boolean().optional(),
  /** The branch it merges into: else the one it started from, or the remote's default branch. */
  base: z.string().min(1).max(200).regex(GIT_NAME, "a branch name").optional(),
  /** Else the task's title, or the first line of the agent's prompt or the initiative's goal. */
  title: z.string().trim().min(1).max(256).optional(),
  /** Else written from the task, the result and the commits. */
  body: z.string().max(65_536).optional(),
});

export const PushSchema = z.object({
  remote: z.string(),
  /** The branch pushed, the same name there. */
  branch: z.string(),
  /** The commit the remote's branch is at now. */
  commit: z.string(),
  /** The remote's URL as git has it, credentials removed. */
  url: z.string(),
});
export type Push = z.infer<typeof PushSchema>;

export const PullRequestSchema = z.object({
  url: z.string(),
  number: z.number().int(),
  /** False: one was open already for the branch (its URL is recorded, nothing new is opened). */
  created: z.boolean(),
  /** How it was reached: the gh CLI, or the GitHub REST API with a token. */
  via: z.enum(["gh", "api"]),
  /** The branch it merges into. */
  base: z.string(),
  push: PushSchema,
});
export type PullRequest = z.infer<typeof PullRequestSchema>;

export const PushResponseSchema = z.object({ push: PushSchema });
export const PullRequestResponseSchema = z.object({ pullRequest: PullRequestSchema });
