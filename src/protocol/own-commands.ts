/**
 * The troupe commands an agent runs as itself (its token says who it is: none of them acts on
 * another agent or decides a permission), the ones its prompt tells it to use to end its run and
 * to talk: allowed in every permission mode, as troupe's MCP tools are (the same things by MCP).
 * Without them an `edits` or `plan` agent could not end its run, and under `ask` the person
 * would be asked before each question it asks.
 */
export const AGENT_OWN_COMMANDS = ["signal", "ask", "listen", "answer", "send", "inbox"] as const;
