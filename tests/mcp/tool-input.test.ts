import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { ENDPOINTS, loadSchema, type Endpoint } from "../../src/protocol/api/index.ts";
import { callArgs, endpointFields, toolInput } from "../../src/mcp/tool-input.ts";
import { fieldRef, type Tool } from "../../src/mcp/tool-row.ts";
import { TOOLS } from "../../src/mcp/tools.ts";

/** A field's schema as JSON Schema, its description aside (a tool may word it for the model). */
function shapeOf(s: z.ZodType): unknown {
  const { description: _, ...rest } = z.toJSONSchema(s) as Record<string, unknown>;
  return rest;
}

/**
 * How a row and its endpoint disagree: an endpoint the table does not have, a field the endpoint
 * does not have, and for a plain row (one call, no `run`) a field the endpoint requires that the
 * tool does not take, or one it takes as another schema than the daemon validates.
 */
async function disagreements(row: Tool): Promise<string[]> {
  const e = (ENDPOINTS as Record<string, Endpoint>)[row.endpoint];
  if (!e) return [`${row.name}: no endpoint ${row.endpoint}`];
  const fields = await endpointFields(e);
  const taken = new Map(Object.entries(row.input ?? Object.fromEntries(Object.keys(fields).map((f) => [f, f]))).map(([name, ref]) => [fieldRef(ref).field, name]));
  const out = [...taken.keys()].filter((f) => !(f in fields)).map((f) => `${row.name}: ${row.endpoint} has no field ${f}`);
  if (row.run || out.length) return out;
  const shape = (await toolInput(row)).shape;
  for (const [field, s] of Object.entries(fields)) {
    const name = taken.get(field);
    if (name === undefined) {
      if (!s.safeParse(undefined).success) out.push(`${row.name}: ${row.endpoint} requires ${field}, which the tool does not take`);
    } else if (!Bun.deepEquals(shapeOf(shape[name]!), shapeOf(s))) {
      out.push(`${row.name}: ${name} is not ${row.endpoint}'s ${field}`);
    }
  }
  return out;
}

describe("the MCP tools' rows", () => {
  test("each names an endpoint of the table, and a plain one takes its endpoint's fields as the daemon validates them", async () => {
    expect((await Promise.all(TOOLS.map(disagreements))).flat()).toEqual([]);
    expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
  });

  test("the check finds a row naming no endpoint, a field its endpoint lacks, a required field left out, a field of another schema", async () => {
    const row = (r: Partial<Tool>): Tool => ({ name: "probe", endpoint: "send", description: "", ...r }) as Tool;
    expect(await disagreements(row({ endpoint: "agentDif" as Tool["endpoint"] }))).toEqual(["probe: no endpoint agentDif"]);
    expect(await disagreements(row({ endpoint: "agent", input: { agent: "id" } }))).toEqual(["probe: agent has no field id"]);
    expect(await disagreements(row({ input: { to: "to" } }))).toEqual(["probe: send requires text, which the tool does not take"]);
    expect(await disagreements(row({ endpoint: "inbox", input: {} }))).toEqual([]);
    // a field taken as another schema than the endpoint's (an own field in its place)
    expect(await disagreements(row({ endpoint: "inbox", input: { after: "after" }, own: { after: z.string() } }))).toEqual(["probe: after is not inbox's after"]);
    // a composite row may leave its endpoint's fields to its body
    expect(await disagreements(row({ input: {}, run: async () => ({ content: [] }) }))).toEqual([]);
    // and the server refuses to start on what the check refuses
    await expect(toolInput(row({ endpoint: "agentDif" as Tool["endpoint"] }))).rejects.toThrow("the API table has no endpoint agentDif");
    await expect(toolInput(row({ endpoint: "agent", input: { agent: "id" } }))).rejects.toThrow("agent has no field id");
  });

  test("a plain row's input is its endpoint's: the body's own schemas, the path parameter under the tool's name", async () => {
    const byName = (n: string) => TOOLS.find((t) => t.name === n)!;
    const send = await toolInput(byName("send_message"));
    const body = await loadSchema(ENDPOINTS.send.body);
    expect(Object.keys(send.shape)).toEqual(Object.keys(body.shape));
    expect(send.shape.text).toBe(body.shape.text);
    const get = await toolInput(byName("get_agent"));
    expect(Object.keys(get.shape)).toEqual(["agent"]);
    expect(get.shape.agent!.description).toBe(ENDPOINTS.agent.params.ref);
    // the reply's call: the path parameter first, then the body or the query
    expect(callArgs(ENDPOINTS.agent, get, { agent: "otter" })).toEqual(["otter"]);
    const answer = await toolInput(byName("answer"));
    expect(callArgs(ENDPOINTS.answer, answer, { conversationId: "c1", answer: "yes" })).toEqual(["c1", { answer: "yes" }]);
    const inbox = await toolInput(byName("read_inbox"));
    expect(Object.keys(inbox.shape)).toEqual(["after"]);
    expect(callArgs(ENDPOINTS.inbox, inbox, { after: 3 })).toEqual([{ after: 3 }]);
    // a tool's own field is not sent
    const list = await toolInput(byName("list_agents"));
    expect(callArgs(ENDPOINTS.listAgents, list, { status: "running" })).toEqual([]);
  });
});
