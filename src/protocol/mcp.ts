/** The longest one MCP tool call waits (`handoff`, `wait_agent`, `ask`, `wait_for_message`). */
export const MCP_MAX_WAIT_SECONDS = 3600;
/** A tool call's wait when none is given: a handoff still running then returns its worker's handle. */
export const MCP_DEFAULT_WAIT_SECONDS = 600;
/** The host's limit troupe writes into every MCP config: above the longest wait, so no host cuts a tool call short. */
export const MCP_TOOL_TIMEOUT_MS = (MCP_MAX_WAIT_SECONDS + 300) * 1000;
