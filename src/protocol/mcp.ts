/** The longest one MCP tool call waits (`handoff`, `wait_agent`, `ask`, `wait_for_message`). */
export const MCP_MAX_WAIT_SECONDS = 3600;
/** A tool call's wait when none is given: a handoff still running then returns its worker's handle. */
export const MCP_DEFAULT_WAIT_SECONDS = 600;
/**
 * The longest the permission tool waits for the person (a week): a person away for the night or a
 * weekend still finds the agent waiting. Claude Code holds its run meanwhile.
 */
export const MCP_PERMISSION_WAIT_SECONDS = 7 * 24 * 3600;
/** The host's limit `troupe mcp --install` writes into the person's own CLI: above the longest wait, so no host cuts a tool call short. */
export const MCP_TOOL_TIMEOUT_MS = (MCP_MAX_WAIT_SECONDS + 300) * 1000;
/**
 * The limit troupe injects into its agents' MCP configs (per server, not per tool): above the
 * permission tool's wait for the person too. Under 2^31 ms, the most a JavaScript timer holds.
 */
export const MCP_AGENT_TOOL_TIMEOUT_MS = (MCP_PERMISSION_WAIT_SECONDS + 300) * 1000;
/** What `troupe mcp` needs from an agent's environment: who the agent is and where its daemon listens (an agent's CLI, or its ACP runner, passes these on). */
export const MCP_SERVER_ENV = ["TROUPE_AGENT_TOKEN", "TROUPE_AGENT_ID", "TROUPE_AGENT_NAME", "TROUPE_SOCKET", "TROUPE_WORKSPACE"] as const;
