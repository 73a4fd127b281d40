import { SandboxConfigSchema } from "./sandbox.ts";
import { z } from "zod";
import { PermissionModeSchema } from "./entities.ts";
import { PermissionRuleSchema } from "./permission.ts";
import { AgentModeSchema } from "./work.ts";

/** A profile's name: what `spawn --profile NAME` says (Claude Code's subagent names fit). */
export const ProfileNameSchema = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "letters, digits, '.', '_' and '-', at most 63");

const Text = z.string().refine((s) => !s.includes("\0"), "must not contain a NUL byte");

/** An MCP server a profile's agent gets: a command it starts, or a URL (Claude Code's `--mcp-config` shapes). */
export const McpServerSchema = z.union([
  z.object({
    type: z.literal("stdio").optional(),
    command: Text.min(1),
    args: z.array(Text).optional(),
    env: z.record(z.string(), Text).optional(),
  }),
  z.object({
    type: z.enum(["http", "sse"]),
    url: z.url(),
    headers: z.record(z.string(), Text).optional(),
  }),
]);
export type McpServer = z.infer<typeof McpServerSchema>;

/** The front matter of a troupe profile (`.troupe/profiles/*.md`, `~/.config/troupe/profiles/*.md`). */
export const ProfileFrontMatterSchema = z.object({
  name: ProfileNameSchema.optional(),
  description: z.string().optional(),
  provider: z.string().min(1).optional(),
  model: Text.min(1).optional(),
  /** The work-model mode this role is meant for (shown; a plain spawn does not use it). */
  mode: AgentModeSchema.optional(),
  permissions: PermissionModeSchema.optional(),
  allowedTools: z.array(Text.min(1)).optional(),
  /** Deny rules (`Bash(rm *)`): a deny wins over any allow. */
  deny: z.array(PermissionRuleSchema).optional(),
  mcpServers: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "letters, digits, '_' and '-'"), McpServerSchema).optional(),
  /** At most this many US dollars over all the agent's runs (the spawn's `budgetUsd`, which wins over it). */
  budget: z.number().positive().optional(),
  /** Its agents' sandbox (src/sandbox/): over the user and workspace configs, under the spawn's flags; a repository's only tightens until trusted. */
  sandbox: SandboxConfigSchema.optional(),
});

/** Claude Code's own subagent file (`.claude/agents/*.md`); `tools` is a comma-separated list. */
export const ClaudeAgentFrontMatterSchema = z.object({
  name: ProfileNameSchema,
  description: z.string().optional(),
  tools: z.union([z.string(), z.array(z.string())]).optional(),
  /** `inherit` (or none): the CLI's default. */
  model: z.string().min(1).optional(),
});

export const ProfileOriginSchema = z.enum(["repository", "claude", "user"]);
export type ProfileOrigin = z.infer<typeof ProfileOriginSchema>;

export const ProfileSchema = z.object({
  name: ProfileNameSchema,
  description: z.string().nullable(),
  provider: z.string().nullable(),
  model: z.string().nullable(),
  mode: AgentModeSchema.nullable(),
  permissions: PermissionModeSchema.nullable(),
  allowedTools: z.array(z.string()).nullable(),
  deny: z.array(z.string()).nullable(),
  mcpServers: z.record(z.string(), McpServerSchema).nullable(),
  budget: z.number().nullable(),
  sandbox: SandboxConfigSchema.nullable(),
  /** The body: the role's instructions (Claude: `--append-system-prompt`; others: before the prompt). */
  instructions: z.string(),
  source: ProfileOriginSchema,
  file: z.string(),
  /**
   * False for a repository profile whose mcpServers wait for `troupe trust FILE` (and whose sandbox
   * only tightens until then); null when it starts no command and sets no sandbox.
   */
  trusted: z.boolean().nullable(),
});
export type Profile = z.infer<typeof ProfileSchema>;

/** A profile file that cannot be used, with why (one line: file, field, reason). */
export const BrokenProfileSchema = z.object({ file: z.string(), source: ProfileOriginSchema, error: z.string() });
export type BrokenProfile = z.infer<typeof BrokenProfileSchema>;

export const ProfilesResponseSchema = z.object({
  profiles: z.array(ProfileSchema),
  broken: z.array(BrokenProfileSchema),
  /** Files whose name a profile read earlier already took (repository first, then Claude's, then the user's). */
  shadowed: z.array(z.object({ name: z.string(), file: z.string(), by: z.string() })),
});
export type ProfilesResponse = z.infer<typeof ProfilesResponseSchema>;
export const ProfileResponseSchema = z.object({ profile: ProfileSchema });
