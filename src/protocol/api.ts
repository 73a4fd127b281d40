/**
 * The API's request and response bodies, by resource. Split so that an agent-side command
 * (`troupe answer`) builds only the conversation schemas: zod schema construction is most of a
 * cold start.
 */
export * from "./api-base.ts";
export * from "./api-agents.ts";
export * from "./api-conversations.ts";
export * from "./api-work.ts";
export * from "./api-messages.ts";
