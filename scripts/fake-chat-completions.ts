/**
 * A 127.0.0.1 stand-in for an OpenAI-compatible Chat Completions API (`POST /chat/completions`,
 * streamed or not, `GET /models`): what opencode, Kilo, Qwen Code, Copilot CLI (BYOK), Cline
 * and pi speak to a custom endpoint; and for the Responses API (`POST /responses`, Codex's, read
 * as the same chat request: scripts/fake-chat-responses.ts). A script sees each agent-loop request (one that offers
 * tools) and returns the next turn; side requests (titles, summaries) get a short text.
 * Used by record-provider-fixtures.ts and by the e2e tests of those CLIs.
 */

import { chatRequestOf, responsesReply, type ResponsesBody } from "./fake-chat-responses.ts";

export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { name?: string; arguments?: string } }>;
  tool_call_id?: string;
}

export interface ChatTool {
  name: string;
  /** JSON schema of the arguments. */
  parameters: { properties?: Record<string, { type?: string | string[] }>; required?: string[] };
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  tools: ChatTool[];
  stream: boolean;
}

export type ChatTurn =
  | { text: string }
  | { tool: string; args: Record<string, unknown> }
  /** An HTTP error instead of a turn. */
  | { status: number; body: unknown };
export type ChatScript = (request: ChatRequest) => ChatTurn | Promise<ChatTurn>;

export interface FakeChat {
  /** Base URL, ending in `/v1`. */
  url: string;
  /** `METHOD /path (main|side)`, in order: evidence for fixtures' meta. */
  requests: string[];
  /** The agent-loop requests, as the script saw them. */
  mainRequests: ChatRequest[];
  stop(): void;
}

export const FAKE_MODEL = "fake-model";

/** Text of a message's content: a string, or the text parts of an array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("");
}

/** Assistant turns since the latest user message: 0 for the first reply to a prompt, 1 after one tool round, ... */
export function turnIndex(request: ChatRequest): number {
  let count = 0;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const m = request.messages[i]!;
    if (m.role === "user" && !isToolResultMessage(m)) break;
    if (m.role === "assistant") count++;
  }
  return count;
}

/** Some clients (pi, Cline) send a tool's result as a user message of their own making; the tool role is the norm. */
function isToolResultMessage(m: ChatMessage): boolean {
  return m.role === "tool";
}

/** The first match of `pattern` in any user or tool message. */
export function findInHistory(request: ChatRequest, pattern: RegExp): RegExpMatchArray | undefined {
  for (const m of request.messages) {
    if (m.role !== "user" && m.role !== "tool") continue;
    const match = contentText(m.content).match(pattern);
    if (match) return match;
  }
  return undefined;
}

/** The tool that runs a shell command, as this CLI names it. */
const SHELL_TOOL = /^(bash|shell|run_shell_command|execute_command|run_commands?|exec_command)$/i;

/** The argument that holds the command: `command`, Codex's `cmd`, or Cline's list `commands`. */
const COMMAND_KEYS = ["command", "cmd", "commands"] as const;

export function shellToolOf(request: ChatRequest): ChatTool | undefined {
  return request.tools.find((t) => SHELL_TOOL.test(t.name) && COMMAND_KEYS.some((k) => t.parameters.properties?.[k] !== undefined));
}

/** A turn calling the CLI's shell tool with `command`, its other required arguments filled plainly. */
export function shell(request: ChatRequest, command: string): ChatTurn {
  const tool = shellToolOf(request);
  if (!tool) return { text: `fake-chat: no shell tool among ${request.tools.map((t) => t.name).join(", ")}` };
  const key = COMMAND_KEYS.find((k) => tool.parameters.properties?.[k] !== undefined)!;
  const args: Record<string, unknown> = { [key]: key === "commands" ? [command] : command };
  // Codex runs a command in a login shell, whose profile resets PATH, unless the model says not to
  if (tool.parameters.properties?.login !== undefined) args.login = false;
  for (const key of tool.parameters.required ?? []) {
    if (key in args) continue;
    const type = tool.parameters.properties?.[key]?.type;
    const t = Array.isArray(type) ? type[0] : type;
    args[key] = t === "boolean" ? false : t === "number" || t === "integer" ? 60 : "Run the command";
  }
  return { tool: tool.name, args };
}

/** A to-do the model writes with the CLI's to-do tool: what an ACP agent sends on as its `plan`. */
export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** The CLI's to-do list tool (opencode's todowrite, Qwen Code's todo_write, ...): one whose name says todo and that takes `todos`. */
function todoToolOf(request: ChatRequest): ChatTool | undefined {
  return request.tools.find((t) => /todo/i.test(t.name) && t.parameters.properties?.todos !== undefined);
}

/** A turn writing `todos` with the CLI's to-do tool, each item's fields as its schema names them (an id, a priority, a form for "under way"); Codex's update_plan takes steps. */
export function writeTodos(request: ChatRequest, todos: Todo[]): ChatTurn {
  const plan = request.tools.find((t) => t.name === "update_plan" && t.parameters.properties?.plan !== undefined);
  if (plan) return { tool: plan.name, args: { plan: todos.map((t) => ({ step: t.content, status: t.status })) } };
  const tool = todoToolOf(request);
  if (!tool) return { text: `fake-chat: no to-do tool among ${request.tools.map((t) => t.name).join(", ")}` };
  const item = (tool.parameters.properties?.todos as { items?: { properties?: Record<string, unknown> } }).items?.properties ?? {};
  const fields = (t: Todo, i: number): Record<string, unknown> => ({
    ...t,
    ...("id" in item && { id: String(i + 1) }),
    ...("priority" in item && { priority: "medium" }),
    ...("activeForm" in item && { activeForm: t.content }),
  });
  return { tool: tool.name, args: { todos: todos.map(fields) } };
}

// ---- wire format ------------------------------------------------------------------------------

let nextId = 0;
const newId = (prefix: string) => `${prefix}_${(nextId++).toString(36)}${Date.now().toString(36)}`;

function usage(request: unknown, reply: string) {
  const prompt = Math.ceil(JSON.stringify(request).length / 40);
  const completion = Math.max(1, Math.ceil(reply.length / 4));
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}

function chunk(id: string, model: string, delta: Record<string, unknown>, finish: string | null) {
  return { id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, finish_reason: finish }] };
}

function streamed(id: string, model: string, turn: Exclude<ChatTurn, { status: number }>, tokens: ReturnType<typeof usage>): Response {
  const events: unknown[] = [chunk(id, model, { role: "assistant", content: "" }, null)];
  if ("text" in turn) {
    // a word at a time, as a real model streams
    for (const piece of turn.text.split(/(?<= )/)) events.push(chunk(id, model, { content: piece }, null));
    events.push(chunk(id, model, {}, "stop"));
  } else {
    const json = JSON.stringify(turn.args);
    const half = Math.floor(json.length / 2);
    const call = { index: 0, id: newId("call"), type: "function", function: { name: turn.tool, arguments: json.slice(0, half) } };
    events.push(chunk(id, model, { tool_calls: [call] }, null));
    events.push(chunk(id, model, { tool_calls: [{ index: 0, function: { arguments: json.slice(half) } }] }, null));
    events.push(chunk(id, model, {}, "tool_calls"));
  }
  events.push({ id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [], usage: tokens });
  const body = `${events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("")}data: [DONE]\n\n`;
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

function whole(id: string, model: string, turn: Exclude<ChatTurn, { status: number }>, tokens: ReturnType<typeof usage>): Response {
  const message =
    "text" in turn
      ? { role: "assistant", content: turn.text }
      : { role: "assistant", content: null, tool_calls: [{ id: newId("call"), type: "function", function: { name: turn.tool, arguments: JSON.stringify(turn.args) } }] };
  const finish = "text" in turn ? "stop" : "tool_calls";
  return Response.json({ id, object: "chat.completion", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, message, finish_reason: finish }], usage: tokens });
}

interface Body {
  model?: unknown;
  messages?: unknown;
  tools?: unknown;
  stream?: unknown;
}

function toRequest(body: Body): ChatRequest {
  const tools = Array.isArray(body.tools) ? body.tools : [];
  return {
    model: typeof body.model === "string" ? body.model : FAKE_MODEL,
    messages: Array.isArray(body.messages) ? (body.messages as ChatMessage[]) : [],
    tools: tools.map((t: { function?: { name?: string; parameters?: ChatTool["parameters"] } }) => ({ name: t.function?.name ?? "", parameters: t.function?.parameters ?? {} })),
    stream: body.stream === true,
  };
}

export interface FakeChatOptions {
  /** Text for side requests (titles, summaries, compaction). */
  sideText?: string;
  /** Every request gets this HTTP error, to record a CLI's real handling of it. */
  fail?: { status: number; body: unknown };
}

export function startFakeChat(script: ChatScript, options: FakeChatOptions = {}): FakeChat {
  const requests: string[] = [];
  const mainRequests: ChatRequest[] = [];
  const runScript = async (request: ChatRequest): Promise<ChatTurn> => {
    try {
      return await script(request);
    } catch (err) {
      return { status: 500, body: { error: { message: `fake-chat script threw: ${String(err)}`, type: "server_error" } } };
    }
  };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const log = (kind: string) => requests.push(`${req.method} ${path}${kind ? ` (${kind})` : ""}`);
      if (options.fail) {
        log("");
        return Response.json(options.fail.body, { status: options.fail.status });
      }
      if (req.method === "GET" && path.endsWith("/models")) {
        log("");
        return Response.json({ object: "list", data: [{ id: FAKE_MODEL, object: "model", created: 0, owned_by: "fake" }] });
      }
      if (req.method === "POST" && path.endsWith("/responses")) {
        const { request, namespaced } = chatRequestOf((await req.json().catch(() => ({}))) as ResponsesBody);
        log("main");
        mainRequests.push(request);
        return responsesReply(await runScript(request), namespaced);
      }
      if (req.method !== "POST" || !path.endsWith("/chat/completions")) {
        log("");
        return Response.json({ error: { message: `fake-chat: no ${req.method} ${path}`, type: "not_found" } }, { status: 404 });
      }
      const body = (await req.json().catch(() => ({}))) as Body;
      const request = toRequest(body);
      // the agent loop offers tools; a title or summary request offers none
      const main = request.tools.length > 0;
      log(main ? "main" : "side");
      let turn: ChatTurn;
      if (main) {
        mainRequests.push(request);
        turn = await runScript(request);
      } else turn = { text: options.sideText ?? "Fake title" };
      if ("status" in turn) return Response.json(turn.body, { status: turn.status });
      const id = newId("chatcmpl");
      const tokens = usage(body, JSON.stringify(turn));
      return request.stream ? streamed(id, request.model, turn, tokens) : whole(id, request.model, turn, tokens);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, mainRequests, stop: () => server.stop(true) };
}
