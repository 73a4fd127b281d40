import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

const REF = { ref: "a flow's id or name" } as const;
const flowReply = reply.key(schema("flows", "FlowResponseSchema"), "flow");

/**
 * Scheduled flows. A flow starts agents on a schedule with the environment of whoever added it,
 * and its gate is a command: adding, changing and running flows is the person's; reading is open.
 */
export const FLOW_ENDPOINTS = {
  flows: endpoint({
    method: "GET",
    path: "/v1/flows",
    summary: "Every flow.",
    rule: "anyone",
    does: "read flows",
    reply: reply.key(schema("flows", "FlowsResponseSchema"), "flows"),
  }),
  addFlow: endpoint({
    method: "POST",
    path: "/v1/flows",
    summary: "A new flow: `name`, `cron`, `profile` or `provider`, `prompt`, `gate`, and the client's `env` for its runs.",
    rule: "person",
    does: "add a flow",
    body: schema("flows", "FlowAddRequestSchema"),
    callerEnv: true,
    reply: flowReply,
    status: 201,
  }),
  flow: endpoint({ method: "GET", path: "/v1/flows/:ref", summary: "One flow.", rule: "anyone", does: "read flows", params: REF, reply: flowReply }),
  removeFlow: endpoint({ method: "DELETE", path: "/v1/flows/:ref", summary: "Removes the flow.", rule: "person", does: "remove a flow", params: REF, reply: reply.ok }),
  enableFlow: endpoint({
    method: "POST",
    path: "/v1/flows/:ref/enable",
    summary: "Its schedule on.",
    rule: "person",
    does: "enable or disable a flow",
    params: REF,
    reply: flowReply,
  }),
  disableFlow: endpoint({
    method: "POST",
    path: "/v1/flows/:ref/disable",
    summary: "Its schedule off.",
    rule: "person",
    does: "enable or disable a flow",
    params: REF,
    reply: flowReply,
  }),
  runFlow: endpoint({
    method: "POST",
    path: "/v1/flows/:ref/run",
    summary: "Runs it now (the gate, the overlap rule, then one agent); its schedule is unchanged. `{flow, outcome, agentId}`.",
    rule: "person",
    does: "run a flow",
    params: REF,
    reply: reply.whole(schema("flows", "FlowRunResponseSchema")),
  }),
} as const;
