import { executeCommand } from "../../providers/acp/command.ts";
import type { PermissionOption, RequestPermissionRequest, RequestPermissionResponse, ToolCallUpdate } from "@agentclientprotocol/sdk";
import type { PermissionRequest } from "../protocol/permission.ts";

/** A tool call as troupe's rules and the person see it: Claude Code's tool names, which the rules (`Bash(npm test*)`, `Edit(src/**)`) are written in. */
export interface TroupeToolCall {
  toolName: string;
  input: Record<string, unknown>;
}

const NAMES: Record<string, string> = { execute: "Bash", edit: "Edit", delete: "Edit", move: "Edit", read: "Read", search: "Grep", fetch: "WebFetch" };

/**
 * An ACP tool call (its kind, title, locations and raw input) in troupe's terms: an `execute` is
 * `Bash` with its command (the raw input's, or its `commands` one a line as Cline sends them,
 * else the title, which is the command for the CLIs seen), an `edit` is `Edit` of its first
 * location, and so on; an MCP tool Cline titles `server__tool: {args}` is `mcp__server__tool`, as
 * troupe's rules name MCP tools; any other kind keeps the agent's title as its name. The agent's
 * own fields stay beside, for the person to read.
 */
export function toolCallOf(call: ToolCallUpdate): TroupeToolCall {
  const raw = call.rawInput && typeof call.rawInput === "object" && !Array.isArray(call.rawInput) ? (call.rawInput as Record<string, unknown>) : {};
  const title = call.title ?? "";
  const path = call.locations?.[0]?.path;
  const kind = call.kind ?? "other";
  const input: Record<string, unknown> = { ...raw, title, kind, ...(call.locations?.length && { locations: call.locations.map((l) => l.path) }) };
  const name = NAMES[kind];
  if (name === "Bash") return { toolName: name, input: { ...input, command: executeCommand(raw) ?? title } };
  if (name === "WebFetch") return { toolName: name, input: { ...input, url: typeof raw.url === "string" ? raw.url : title } };
  if (name === "Grep") return { toolName: name, input: { ...input, pattern: typeof raw.pattern === "string" ? raw.pattern : title } };
  if (name) return { toolName: name, input: path ? { ...input, file_path: path } : input };
  const mcp = kind === "other" ? /^([\w-]+)__([\w-]+)(?::|$)/.exec(title) : null;
  if (mcp) return { toolName: `mcp__${mcp[1]}__${mcp[2]}`, input };
  return { toolName: (title || kind).slice(0, 256), input };
}

/**
 * troupe's decision as the agent's answer: an allow picks the agent's "allow once" option (an
 * "always" becomes troupe's own rule for the agent, so the agent never keeps one troupe does not
 * know); a deny, a cancel or no answer in time picks "reject once". An agent that offers no such
 * option gets `cancelled`, which ACP defines as not running the call.
 */
export function answerOf(params: RequestPermissionRequest, r: Pick<PermissionRequest, "status">): RequestPermissionResponse {
  const pick = (...kinds: PermissionOption["kind"][]) => kinds.map((k) => params.options.find((o) => o.kind === k)).find((o) => o !== undefined);
  const option = r.status === "allowed" ? pick("allow_once", "allow_always") : pick("reject_once", "reject_always");
  return option ? { outcome: { outcome: "selected", optionId: option.optionId } } : { outcome: { outcome: "cancelled" } };
}
