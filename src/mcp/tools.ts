import { PERMISSION_TOOL } from "./tools-permission.ts";
import { AGENT_TOOLS } from "./tools-agents.ts";
import { TALK_TOOLS } from "./tools-talk.ts";
import type { Tool } from "./tool-row.ts";

/** troupe's MCP tools, in the order the server lists them: one row each, naming its endpoint of the API table. */
export const TOOLS: readonly Tool[] = [...AGENT_TOOLS, ...TALK_TOOLS, PERMISSION_TOOL];
