import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Agent } from "../protocol/entities.ts";

/** A tool's answer as text; `isError` marks a refusal the model should read, never a crash of the server. */
export function text(body: string, isError = false): CallToolResult {
  return { content: [{ type: "text", text: body }], ...(isError && { isError: true }) };
}

export const json = (value: unknown): CallToolResult => text(JSON.stringify(value, null, 2));

/** Runs a tool's body; any failure (a refusal by the daemon, a daemon gone) becomes one readable error result. */
export async function guarded(fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    return text(err instanceof Error ? err.message : String(err), true);
  }
}

/** What a supervisor needs of an agent: not its environment, prompt or token counts. */
export function agentView(a: Agent) {
  return {
    id: a.id,
    name: a.name,
    provider: a.provider,
    status: a.status,
    parentId: a.parentId,
    model: a.model,
    branch: a.branch,
    worktree: a.worktree,
    session: a.session,
    ...(a.result !== null && { result: a.result }),
    ...(a.error !== null && { error: a.error }),
    ...(a.questions !== null && { questions: a.questions }),
    ...(a.uncommitted && { uncommitted: true }),
  };
}
