import { randomUUID } from "node:crypto";
import { z } from "zod";
import { awaitPermission } from "../client/permission-wait.ts";
import { MCP_PERMISSION_WAIT_SECONDS } from "../protocol/mcp.ts";
import type { PermissionRequest } from "../protocol/permission.ts";
import { text } from "./result.ts";
import { tool } from "./tool-row.ts";

/**
 * What Claude Code's permission prompt tool answers, as the JSON text it parses: allow with the
 * input to run (the original unless the person changed it), or deny with the message the model reads.
 */
function claudeAnswer(r: PermissionRequest, input: Record<string, unknown>): string {
  switch (r.status) {
    case "allowed":
      return JSON.stringify({ behavior: "allow", updatedInput: r.updatedInput ?? input });
    case "denied":
      return JSON.stringify({ behavior: "deny", message: r.reason ?? "denied" });
    case "cancelled":
      return JSON.stringify({ behavior: "deny", message: "cancelled: the session that asked has ended" });
    case "pending":
      return JSON.stringify({ behavior: "deny", message: `no answer from the person within ${MCP_PERMISSION_WAIT_SECONDS / 3600} hours` });
  }
}

/**
 * `permission`: Claude Code's `--permission-prompt-tool mcp__troupe__permission` under `ask`. It
 * files the call and waits for the decision as an ACP runner does (src/client/permission-wait.ts).
 */
export const PERMISSION_TOOL = tool({
  name: "permission",
  endpoint: "filePermission",
  description: "Claude Code's permission prompt (--permission-prompt-tool): asks the person whether a tool call may run. Called by the CLI itself; never call it yourself.",
  // as Claude Code sends it, not the request's fields; unknown fields are kept out of the daemon's record
  input: {},
  own: { tool_name: z.string().min(1), input: z.record(z.string(), z.unknown()), tool_use_id: z.string().min(1).optional() },
  run: async (ctx, { tool_name, input, tool_use_id }, extra) => {
    // without an id (an older CLI) a restart cannot find the request again: a new one is filed
    const toolUseId = tool_use_id ?? `troupe-${randomUUID()}`;
    const deadline = Date.now() + MCP_PERMISSION_WAIT_SECONDS * 1000;
    try {
      const r = await awaitPermission(ctx.client, { toolName: tool_name, input, toolUseId }, deadline, extra.signal);
      return text(claudeAnswer(r, input));
    } catch (err) {
      // a deny the model can read: the call does not run, and the agent goes on
      return text(JSON.stringify({ behavior: "deny", message: `troupe could not ask the person: ${err instanceof Error ? err.message : String(err)}` }));
    }
  },
});
