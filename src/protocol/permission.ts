import { z } from "zod";

/**
 * A tool call an agent may not make alone (permission mode `ask`), routed to the person.
 * Claude Code in print mode asks troupe's MCP tool `permission` (`--permission-prompt-tool
 * mcp__troupe__permission`); the tool files a request here and long-polls its decision. A
 * request the agent's rules decide is stored already decided (`decidedBy: "rule"`), for the log.
 *
 * Nothing is answered by accident: only an explicit choice of the person, a rule, or the end of
 * the agent's session (`cancelled`) decides a request, and a decided one is never decided again.
 */
export const PermissionKindSchema = z.enum([
  /** any tool call (Bash, Edit, an MCP tool, ...): allow once / allow always / deny */
  "tool",
  /** Claude's AskUserQuestion: the person's answers go back in `updatedInput` */
  "question",
  /** Claude's ExitPlanMode: a plan to approve (allow) or send back with a comment (deny) */
  "plan",
]);
export type PermissionKind = z.infer<typeof PermissionKindSchema>;

export const PermissionStatusSchema = z.enum(["pending", "allowed", "denied", "cancelled"]);
export type PermissionStatus = z.infer<typeof PermissionStatusSchema>;

export const PermissionDeciderSchema = z.enum(["person", "rule", "ended"]);

export const PermissionRequestSchema = z.object({
  /** `perm_<n>`: a later request has a greater number. */
  id: z.string(),
  agentId: z.string(),
  agentName: z.string(),
  kind: PermissionKindSchema,
  /** As the agent's CLI names it (`Bash`, `Edit`, `mcp__github__create_issue`). */
  toolName: z.string(),
  /** The tool's input as the agent sent it. */
  input: z.record(z.string(), z.unknown()),
  status: PermissionStatusSchema,
  decidedBy: PermissionDeciderSchema.nullable(),
  /** The rule that decided it (`Bash(npm test*)`), or the rule "allow always" added. */
  rule: z.string().nullable(),
  /** A deny's reason, as the agent receives it. */
  reason: z.string().nullable(),
  /** An allow's input when the person changed it (AskUserQuestion's answers); null: the input as sent. */
  updatedInput: z.record(z.string(), z.unknown()).nullable(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/**
 * `POST /v1/permissions/:id/decide` (the person only: no agent decides a request, its own
 * included). `always` adds the rule shown for the request to the agent's allow rules.
 */
export const PermissionDecisionSchema = z.discriminatedUnion("behavior", [
  z.object({
    behavior: z.literal("allow"),
    always: z.boolean().optional(),
    updatedInput: z.record(z.string(), z.unknown()).optional(),
  }),
  z.object({ behavior: z.literal("deny"), reason: z.string().min(1).max(16 * 1024) }),
]);
export type PermissionDecision = z.infer<typeof PermissionDecisionSchema>;

import { parseRule } from "./permission-rule.ts";

export { parseRule, type ParsedRule } from "./permission-rule.ts";
export const PermissionRuleSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => parseRule(s) !== null && !s.includes("\n"), { error: "a rule is Tool or Tool(pattern): Bash(npm test*), Edit(src/**), Read" });

/**
 * A permission policy as the workspace config, the user's config, a profile, an initiative or a
 * spawn states it. Rules are `Tool` or `Tool(pattern)` (`Bash(npm test*)`, `Edit(src/**)`,
 * `Read`); a deny rule wins over any allow. Layers merge spawn flags first, then profile,
 * initiative, workspace config, user config: the first that names a mode wins, rules add up.
 */
export const PermissionPolicySchema = z.object({
  /** skip | edits | plan | ask (PermissionModeSchema) */
  mode: z.string().min(1).optional(),
  allow: z.array(PermissionRuleSchema).optional(),
  deny: z.array(PermissionRuleSchema).optional(),
});
export type PermissionPolicy = z.infer<typeof PermissionPolicySchema>;

/**
 * `POST /v1/permissions` (an agent only, for itself): a tool call as its CLI asks about it. The same
 * `toolUseId` again returns the request already filed (a daemon restart between filing and replying
 * loses nothing).
 */
export const PermissionFileRequestSchema = z.object({
  toolName: z.string().min(1).max(256),
  input: z.record(z.string(), z.unknown()),
  /** Claude's tool_use id: the idempotency key, unique per agent. */
  toolUseId: z.string().min(1).max(256),
});
export type PermissionFileRequest = z.infer<typeof PermissionFileRequestSchema>;

export const PermissionResponseSchema = z.object({ request: PermissionRequestSchema });
export const PermissionsResponseSchema = z.object({ requests: z.array(PermissionRequestSchema) });
