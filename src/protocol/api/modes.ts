import { endpoint, reply, type Endpoint } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";

// a mode run is a spawn (the caller's child) with the work model's input; its outputs are
// proposals the person reviews
const run = {
  method: "POST",
  rule: "anyone",
  does: "start a mode agent",
  body: schema("work", "ModeRunRequestSchema"),
  callerEnv: true,
  reply: reply.key(schema("work", "ModeRunResponseSchema"), "agent"),
  status: 201,
} as const satisfies Partial<Endpoint>;
const INITIATIVE = { ref: "an initiative's id or slug" } as const;
const WHEN = "409 when the initiative is not active";

/** Mode agents on the work model (execute runs come from dispatch). */
export const MODE_ENDPOINTS = {
  discuss: endpoint({ ...run, path: "/v1/initiatives/:ref/discuss", params: INITIATIVE, summary: `An agent that settles the initiative's open decisions with the person; ${WHEN}.` }),
  plan: endpoint({ ...run, path: "/v1/initiatives/:ref/plan", params: INITIATIVE, summary: `An agent that proposes the initiative's phases; ${WHEN}.` }),
  refine: endpoint({ ...run, path: "/v1/initiatives/:ref/refine", params: INITIATIVE, summary: `An agent that proposes a clearer goal for the initiative; ${WHEN}.` }),
  detail: endpoint({
    ...run,
    path: "/v1/phases/:ref/detail",
    params: { ref: "a phase's id or `<initiative>/<slug>`" },
    summary: "An agent that breaks an approved phase into tasks; 409 when the phase is not approved.",
  }),
  decisions: endpoint({
    method: "GET",
    path: "/v1/initiatives/:ref/decisions",
    summary: "The decisions discuss agents recorded for the initiative.",
    rule: "anyone",
    does: "read an initiative's decisions",
    params: INITIATIVE,
    reply: reply.key(schema("proposals", "DecisionsResponseSchema"), "decisions"),
  }),
  modePrompt: endpoint({
    method: "GET",
    path: "/v1/prompts/:mode",
    summary:
      "What an agent of the mode on `ref` would be told, built as a spawn builds it (its id and name shown as AGENT_ID and AGENT_NAME); without `ref`, on a placeholder target (`placeholder: true`). `prompt` is the blocks' texts joined by blank lines.",
    rule: "anyone",
    does: "read a mode's prompt",
    params: { mode: "discuss, plan or refine (on an initiative), detail (a phase) or execute (a task)" },
    query: { ref: query.text("the initiative, phase or task it works on"), provider: query.text("whose agent it is (default: claude): it decides how questions reach the agent") },
    reply: reply.whole(schema("work", "ModePromptResponseSchema")),
  }),
} as const;
