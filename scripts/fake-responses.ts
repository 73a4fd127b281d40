/**
 * A 127.0.0.1 stand-in for the OpenAI Responses API (`POST /responses`, streamed), scripted turn
 * by turn: what Codex speaks. A script sees each request (the input items so far, the tools
 * offered) and returns the next turn: a function call or a text answer. Used by Codex's e2e tests;
 * its turns are fake-model-servers.ts's too.
 */
import { serveLocal } from "./lib/http.ts";

export interface ResponsesItem {
  type?: string;
  role?: string;
  name?: string;
  arguments?: string;
  call_id?: string;
  output?: unknown;
  content?: unknown;
  /** A tool search's answer: the tools it found, a server's in its namespace. */
  tools?: { type?: string; name?: string; tools?: { name?: string }[] }[];
}

export interface ResponsesRequest {
  input: ResponsesItem[];
}

/** A text answer, a function call, or a search of the tools Codex defers (its MCP servers' tools). */
export type ResponsesTurn = { text: string } | { tool: string; args: Record<string, unknown>; namespace?: string } | { toolSearch: string };
export type ResponsesScript = (request: ResponsesRequest) => ResponsesTurn;

export interface FakeResponses {
  /** Base URL, ending in `/v1`. */
  url: string;
  /** Every request that asked for a turn, in order. */
  requests: ResponsesRequest[];
  stop(): void;
}

/** How many calls the model made since the last prompt: 0 for a prompt's first turn. */
export function responsesTurnIndex(request: ResponsesRequest): number {
  let count = 0;
  for (let i = request.input.length - 1; i >= 0; i--) {
    const item = request.input[i]!;
    if (item.type === "message" && item.role === "user") break;
    if (item.type === "function_call" || item.type === "tool_search_call") count++;
  }
  return count;
}

/** The text of a message or a call's output, whatever its shape. */
function itemText(item: ResponsesItem | undefined): string {
  const c = item?.output ?? item?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p === "object" && p && "text" in p ? String(p.text) : "")).join("");
  return c === undefined ? "" : JSON.stringify(c);
}

/** The text of every user message and call output so far, joined: what the model has been told. */
export function toldSoFar(request: ResponsesRequest): string {
  return request.input.filter((i) => i.type === "function_call_output" || (i.type === "message" && i.role === "user")).map(itemText).join("\n");
}

/** A tool a tool search found, by its namespace (`mcp__troupe`) and name: what the next turn may call. */
export function foundTool(request: ResponsesRequest, namespace: string, name: string): { namespace: string; tool: string } | undefined {
  for (const item of request.input) {
    if (item.type !== "tool_search_output") continue;
    const ns = item.tools?.find((t) => t.name === namespace && t.tools?.some((x) => x.name === name));
    if (ns) return { namespace, tool: name };
  }
  return undefined;
}

let next = 0;

/** One turn as the streamed events of a response: its item added, its text a word at a time, done, completed with its usage. */
export function turnResponse(turn: ResponsesTurn): Response {
  const n = ++next;
  const item =
    "text" in turn
      ? { type: "message", id: `msg_${n}`, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.text, annotations: [] }] }
      : "toolSearch" in turn
        ? { type: "tool_search_call", id: `ts_${n}`, call_id: `call_${n}`, execution: "client", arguments: { query: turn.toolSearch }, status: "completed" }
        : { type: "function_call", id: `fc_${n}`, call_id: `call_${n}`, name: turn.tool, ...(turn.namespace && { namespace: turn.namespace }), arguments: JSON.stringify(turn.args), status: "completed" };
  const usage = { input_tokens: 1200, input_tokens_details: { cached_tokens: 0 }, output_tokens: 24, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1224 };
  const id = `resp_${n}`;
  const events = [
    { type: "response.created", response: { id } },
    { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress" } },
    ...("text" in turn ? turn.text.split(/(?<= )/).map((delta) => ({ type: "response.output_text.delta", item_id: item.id, output_index: 0, content_index: 0, delta })) : []),
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { id, usage } },
  ];
  const body = events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

export async function startFakeResponses(script: ResponsesScript): Promise<FakeResponses> {
  const requests: ResponsesRequest[] = [];
  const server = await serveLocal(async (req) => {
    const url = new URL(req.url);
    if (!url.pathname.endsWith("/responses")) return Response.json({ data: [] });
    const body = (await req.json()) as { input?: ResponsesItem[] };
    const request = { input: body.input ?? [] };
    requests.push(request);
    return turnResponse(script(request));
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, stop: () => server.stop() };
}
