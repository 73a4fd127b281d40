/**
 * The fake chat model (scripts/fake-chat-completions.ts) over the OpenAI Responses API, what Codex
 * (and Zed's codex-acp, which embeds it) speaks: a Responses request is read as the chat request
 * its script sees, and the script's turn is streamed back as a response
 * (scripts/fake-responses.ts). So one script drives the Chat Completions CLIs and Codex alike.
 */
import type { ChatMessage, ChatRequest, ChatTool, ChatTurn } from "./fake-chat-completions.ts";
import { turnResponse, type ResponsesItem, type ResponsesTurn } from "./fake-responses.ts";

interface ResponsesTool {
  type?: string;
  name?: string;
  parameters?: ChatTool["parameters"];
  /** A namespace's tools (an MCP server's: `mcp__troupe`). */
  tools?: ResponsesTool[];
}

export interface ResponsesBody {
  model?: unknown;
  input?: unknown;
  tools?: unknown;
}

/** A tool of a namespace, as the chat script sees it: `mcp__troupe__spawn_agent`, Codex's own name for it. */
const flatName = (namespace: string, name: string) => `${namespace}__${name}`;

function text(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : JSON.stringify(content);
  return content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("");
}

function message(item: ResponsesItem): ChatMessage | undefined {
  switch (item.type) {
    case "message":
      return { role: item.role === "developer" ? "system" : (item.role ?? "user"), content: text(item.content) };
    case "function_call": {
      const ns = (item as { namespace?: string }).namespace;
      const name = ns ? flatName(ns, item.name ?? "") : item.name;
      return { role: "assistant", tool_calls: [{ id: item.call_id, function: { name, arguments: item.arguments } }] };
    }
    case "function_call_output":
      return { role: "tool", tool_call_id: item.call_id, content: text(item.output) };
    default:
      return undefined;
  }
}

/** The chat request a Responses body is, and the namespaced tool each flat name stands for. */
export function chatRequestOf(body: ResponsesBody): { request: ChatRequest; namespaced: Map<string, { namespace: string; tool: string }> } {
  const namespaced = new Map<string, { namespace: string; tool: string }>();
  const tools: ChatTool[] = [];
  for (const t of Array.isArray(body.tools) ? (body.tools as ResponsesTool[]) : []) {
    if (t.type === "namespace" && t.name) {
      for (const x of t.tools ?? []) {
        if (!x.name) continue;
        namespaced.set(flatName(t.name, x.name), { namespace: t.name, tool: x.name });
        tools.push({ name: flatName(t.name, x.name), parameters: x.parameters ?? {} });
      }
    } else if (t.name) tools.push({ name: t.name, parameters: t.parameters ?? {} });
  }
  const input = Array.isArray(body.input) ? (body.input as ResponsesItem[]) : [];
  const messages = input.map(message).filter((m): m is ChatMessage => m !== undefined);
  return { request: { model: typeof body.model === "string" ? body.model : "", messages, tools, stream: true }, namespaced };
}

/** The script's turn as a streamed response; an HTTP error stays one. */
export function responsesReply(turn: ChatTurn, namespaced: Map<string, { namespace: string; tool: string }>): Response {
  if ("status" in turn) return Response.json(turn.body, { status: turn.status });
  if ("text" in turn) return turnResponse(turn);
  const ns = namespaced.get(turn.tool);
  const call: ResponsesTurn = ns ? { tool: ns.tool, namespace: ns.namespace, args: turn.args } : turn;
  return turnResponse(call);
}
