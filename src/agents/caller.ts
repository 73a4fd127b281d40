import type { AgentRecord } from "../store/agents.ts";

/**
 * Who is calling a service: an agent (it proved itself with its token) or the person. Every
 * adapter (HTTP today, MCP next) resolves its caller once and passes it to the services.
 */
export type Caller = { kind: "user" } | { kind: "agent"; agent: AgentRecord };
