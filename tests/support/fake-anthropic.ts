import { z } from "zod";

/**
 * An offline, scripted Anthropic Messages API for driving the real Claude Code CLI in tests.
 * A script sees each main agent-loop request (system, messages, tools) and returns the next
 * assistant turn; Claude Code's side requests get a short harmless text.
 */

/** Env that keeps Claude Code from phoning home (checked with a logging proxy: no CONNECT at all). */
const CLAUDE_OFFLINE_ENV = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_ERROR_REPORTING: "1",
  DISABLE_AUTOUPDATER: "1",
} as const;

type ContentBlock = { type: string; [key: string]: unknown };
interface Message {
  role: "user" | "assistant" | "system";
  content: string | ContentBlock[];
}

export type ReplyBlock =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

/** An HTTP error the server answers with instead of a turn. */
export interface ApiError {
  error: { status: number; type: string; message: string; headers?: Record<string, string> };
}
export type Turn = ReplyBlock[] | ApiError;

export interface ScriptRequest {
  model: string;
  system: string;
  messages: Message[];
  tools: string[];
  stream: boolean;
}
export type Script = (request: ScriptRequest) => Turn | Promise<Turn>;

type RequestKind = "main" | "side" | "other";
interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  kind: RequestKind;
}

export interface FakeAnthropicOptions {
  /** Which message requests go to the script; by default those offering the Bash tool. */
  isMain?: (request: ScriptRequest) => boolean;
  /** Text for side requests (titles, quota checks, summaries). */
  sideText?: string;
  /** Answers a Messages request with an error before any script sees it, by its headers (say, a spent account's token). */
  gate?: (headers: Record<string, string>) => ApiError | undefined;
  /** Rate-limit headers a successful Messages reply carries, by the request's headers (an account's usage window, as the real API reports it). */
  limits?: (headers: Record<string, string>) => Record<string, string> | undefined;
}

export interface FakeAnthropic {
  url: string;
  requests: RecordedRequest[];
  /** Only the main agent-loop requests, parsed. */
  mainRequests(): ScriptRequest[];
  stop(): Promise<void>;
}

const BlockSchema = z.looseObject({ type: z.string() });
const BodySchema = z.looseObject({
  model: z.string(),
  messages: z.array(z.object({ role: z.enum(["user", "assistant", "system"]), content: z.union([z.string(), z.array(BlockSchema)]) })),
  system: z.union([z.string(), z.array(z.looseObject({ text: z.string().optional() }))]).optional(),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  stream: z.boolean().optional(),
});

// ---- turn builders -------------------------------------------------------------------------

export const text = (t: string): ReplyBlock => ({ type: "text", text: t });
export const toolUse = (name: string, input: Record<string, unknown>): ReplyBlock => ({ type: "tool_use", name, input });
export const bash = (command: string, description = "Run a command"): ReplyBlock => toolUse("Bash", { command, description });
/** The subscription usage-limit 429 as the real API sends it (recorded: tests/fixtures/claude/usage-limit.meta.json). */
export const usageLimitError = (resetAtMs: number): ApiError =>
  apiError(429, "rate_limit_error", "This request would exceed your account's rate limit. Please try again later.", {
    "anthropic-ratelimit-unified-status": "rejected",
    "anthropic-ratelimit-unified-reset": String(Math.ceil(resetAtMs / 1000)),
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
  });

/**
 * The rate-limit headers of a subscription's successful reply: the 5-hour window `used` (0..1)
 * resetting at `resetAtMs`, the 7-day one at 40 % (the headers the real CLI reads: its rate_limit_event
 * is recorded in tests/fixtures/claude/usage-window.stdout.jsonl).
 */
export const usageWindowHeaders = (used: number, resetAtMs: number): Record<string, string> => {
  const status = used >= 1 ? "rejected" : used >= 0.9 ? "allowed_warning" : "allowed";
  const reset = String(Math.ceil(resetAtMs / 1000));
  return {
    "anthropic-ratelimit-unified-status": status,
    "anthropic-ratelimit-unified-reset": reset,
    "anthropic-ratelimit-unified-representative-claim": "five_hour",
    "anthropic-ratelimit-unified-5h-status": status,
    "anthropic-ratelimit-unified-5h-reset": reset,
    "anthropic-ratelimit-unified-5h-utilization": String(used),
    "anthropic-ratelimit-unified-7d-status": "allowed",
    "anthropic-ratelimit-unified-7d-reset": String(Math.ceil(resetAtMs / 1000) + 3 * 86_400),
    "anthropic-ratelimit-unified-7d-utilization": "0.4",
  };
};

/** The token a request carries (`authorization: Bearer T`, or `x-api-key: T`). */
export const requestToken = (headers: Record<string, string>): string | undefined => headers.authorization?.replace(/^Bearer\s+/i, "") ?? headers["x-api-key"];

export const apiError = (status: number, type: string, message: string, headers?: Record<string, string>): ApiError => ({
  error: { status, type, message, headers },
});

// ---- reading the conversation ------------------------------------------------------------

function blocks(message: Message): ContentBlock[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content;
}

function isPrompt(message: Message): boolean {
  return message.role === "user" && !blocks(message).some((b) => b.type === "tool_result");
}

/** Assistant turns since the latest prompt: 0 for the first reply to a prompt, 1 after one tool round, ... */
export function turnIndex(request: ScriptRequest): number {
  let count = 0;
  for (let i = request.messages.length - 1; i >= 0; i--) {
    const message = request.messages[i]!;
    if (isPrompt(message)) break;
    if (message.role === "assistant") count++;
  }
  return count;
}

function resultText(block: ContentBlock): string {
  const content = block.content;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c: { text?: unknown }) => (typeof c.text === "string" ? c.text : "")).join("");
}

/** Every user-side text in order: prompt text blocks and tool_result contents. */
export function userTexts(request: ScriptRequest): string[] {
  const out: string[] = [];
  for (const message of request.messages) {
    if (message.role !== "user") continue;
    for (const block of blocks(message)) {
      if (block.type === "text" && typeof block.text === "string") out.push(block.text);
      if (block.type === "tool_result") out.push(resultText(block));
    }
  }
  return out;
}

/** The output of the most recent tool call, or undefined when the last message holds none. */
export function lastToolResult(request: ScriptRequest): { text: string; isError: boolean } | undefined {
  const last = request.messages.at(-1);
  const block = last ? blocks(last).findLast((b) => b.type === "tool_result") : undefined;
  return block ? { text: resultText(block), isError: block.is_error === true } : undefined;
}

/** The first match of `pattern` in any user text or tool result of the conversation. */
export function findInHistory(request: ScriptRequest, pattern: RegExp): RegExpMatchArray | undefined {
  for (const t of userTexts(request)) {
    const match = t.match(pattern);
    if (match) return match;
  }
  return undefined;
}

/** A script replying with `turns[i]` to the i-th assistant turn after the latest prompt, then `finalText`. */
export function sequence(turns: Turn[], finalText = "done"): Script {
  return (request) => turns[turnIndex(request)] ?? [text(finalText)];
}

// ---- wire format -----------------------------------------------------------------------------

let nextId = 0;
const newId = (prefix: string): string => `${prefix}_fake${(nextId++).toString().padStart(6, "0")}${Date.now().toString(36)}`;

function materialize(reply: ReplyBlock[]): ContentBlock[] {
  return reply.map((b) => (b.type === "text" ? { type: "text", text: b.text } : { type: "tool_use", id: b.id ?? newId("toolu"), name: b.name, input: b.input }));
}

function usage(body: unknown, content: ContentBlock[]): { input_tokens: number; output_tokens: number } {
  return {
    input_tokens: Math.ceil(JSON.stringify(body).length / 40),
    output_tokens: Math.max(1, Math.ceil(JSON.stringify(content).length / 4)),
  };
}

function sse(model: string, content: ContentBlock[], tokens: { input_tokens: number; output_tokens: number }): string {
  const ev = (type: string, data: Record<string, unknown>) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  const out = [
    ev("message_start", {
      message: { id: newId("msg"), type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: tokens.input_tokens, output_tokens: 1 } },
    }),
  ];
  content.forEach((block, index) => {
    if (block.type === "text") {
      out.push(ev("content_block_start", { index, content_block: { type: "text", text: "" } }));
      out.push(ev("content_block_delta", { index, delta: { type: "text_delta", text: block.text } }));
    } else {
      out.push(ev("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } }));
      const json = JSON.stringify(block.input);
      // Two halves, so the client has to join partial JSON as it would for the real API.
      const half = Math.floor(json.length / 2);
      for (const part of [json.slice(0, half), json.slice(half)]) out.push(ev("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } }));
    }
    out.push(ev("content_block_stop", { index }));
  });
  out.push(ev("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: tokens.output_tokens } }));
  out.push(ev("message_stop", {}));
  return out.join("");
}

function errorResponse(e: ApiError["error"]): Response {
  return Response.json({ type: "error", error: { type: e.type, message: e.message }, request_id: newId("req") }, { status: e.status, headers: e.headers });
}

function toScriptRequest(body: z.infer<typeof BodySchema>): ScriptRequest {
  const system = typeof body.system === "string" ? body.system : (body.system ?? []).map((b) => b.text ?? "").join("\n");
  return { model: body.model, system, messages: body.messages as Message[], tools: (body.tools ?? []).map((t) => t.name), stream: body.stream === true };
}

export function startFakeAnthropic(script: Script, options: FakeAnthropicOptions = {}): FakeAnthropic {
  const requests: RecordedRequest[] = [];
  const main: ScriptRequest[] = [];
  const isMain = options.isMain ?? ((r: ScriptRequest) => r.tools.includes("Bash"));
  const sideText = options.sideText ?? "ok";

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const raw = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
      let body: unknown = raw;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {}
      const record: RecordedRequest = { method: req.method, path: url.pathname + url.search, headers: Object.fromEntries(req.headers), body, kind: "other" };
      requests.push(record);

      if (req.method !== "POST") return Response.json({});
      if (url.pathname === "/v1/messages/count_tokens") return Response.json({ input_tokens: Math.ceil(raw.length / 40) });
      if (url.pathname !== "/v1/messages") return Response.json({});

      const refused = options.gate?.(record.headers);
      if (refused) return errorResponse(refused.error);
      const parsed = BodySchema.safeParse(body);
      if (!parsed.success) return errorResponse({ status: 400, type: "invalid_request_error", message: `fake-anthropic: ${parsed.error.message}` });
      const request = toScriptRequest(parsed.data);
      record.kind = isMain(request) ? "main" : "side";
      let turn: Turn;
      if (record.kind === "main") {
        main.push(request);
        try {
          turn = await script(request);
        } catch (err) {
          turn = apiError(500, "api_error", `fake-anthropic script threw: ${String(err)}`);
        }
      } else {
        turn = [text(sideText)];
      }
      if (!Array.isArray(turn)) return errorResponse(turn.error);

      const content = materialize(turn);
      const tokens = usage(body, content);
      const limits = options.limits?.(record.headers) ?? {};
      if (request.stream) return new Response(sse(request.model, content, tokens), { headers: { "content-type": "text/event-stream", "cache-control": "no-cache", ...limits } });
      const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
      return Response.json({ id: newId("msg"), type: "message", role: "assistant", model: request.model, content, stop_reason: stop, stop_sequence: null, usage: tokens }, { headers: limits });
    },
  });

  return {
    url: server.url.href.replace(/\/$/, ""),
    requests,
    mainRequests: () => main,
    stop: () => server.stop(true),
  };
}

// ---- running the real CLI against it -----------------------------------------------------------

export const CLAUDE_BIN = new URL("../../node_modules/.bin/claude", import.meta.url).pathname;

const GIT_IDENTITY_ENV = {
  GIT_AUTHOR_NAME: "Fake Agent",
  GIT_AUTHOR_EMAIL: "agent@example.invalid",
  GIT_COMMITTER_NAME: "Fake Agent",
  GIT_COMMITTER_EMAIL: "agent@example.invalid",
} as const;

/** A clean env for the real CLI: no inherited keys or config dirs, only what points it at the fake. */
export function claudeEnv(baseUrl: string, home: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "test",
    // Claude Code refuses --dangerously-skip-permissions as root unless it believes it is sandboxed.
    IS_SANDBOX: "1",
    ...CLAUDE_OFFLINE_ENV,
    ...GIT_IDENTITY_ENV,
    ...extra,
  };
}

export interface ClaudeRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** stdout lines that parse as JSON objects. */
  events: Record<string, unknown>[];
  durationMs: number;
}

/** The CLI's stdin while it runs (`--input-format stream-json`): more lines, or its end. */
export interface StdinIo {
  write(line: string): void;
  end(): void;
}

export interface RunClaudeOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  /** Written to stdin first; stdin is then closed, unless `onEvent` keeps it open. */
  stdin?: string;
  /** Sees each stdout event as it comes, and may write further lines or close stdin. */
  onEvent?: (event: Record<string, unknown>, io: StdinIo) => void;
}

export async function runClaude(args: string[], opts: RunClaudeOptions): Promise<ClaudeRun> {
  const started = performance.now();
  const proc = Bun.spawn([CLAUDE_BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.stdin === undefined ? "ignore" : "pipe",
    stdout: "pipe",
    stderr: "pipe",
    timeout: opts.timeoutMs ?? 60_000,
    killSignal: "SIGKILL",
  });
  let ended = false;
  const io: StdinIo = {
    write: (line) => {
      if (ended || !proc.stdin) return;
      proc.stdin.write(line);
      proc.stdin.flush();
    },
    end: () => {
      if (ended || !proc.stdin) return;
      ended = true;
      proc.stdin.end();
    },
  };
  if (opts.stdin !== undefined) {
    io.write(opts.stdin);
    if (!opts.onEvent) io.end();
  }
  const events: Record<string, unknown>[] = [];
  const readStdout = async (): Promise<string> => {
    let all = "";
    let partial = "";
    const decoder = new TextDecoder();
    for await (const bytes of proc.stdout) {
      const chunk = decoder.decode(bytes, { stream: true });
      all += chunk;
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        try {
          const value: unknown = JSON.parse(line);
          if (value && typeof value === "object" && !Array.isArray(value)) {
            events.push(value as Record<string, unknown>);
            opts.onEvent?.(value as Record<string, unknown>, io);
          }
        } catch {}
      }
    }
    io.end();
    return all;
  };
  const [stdout, stderr, exitCode] = await Promise.all([readStdout(), new Response(proc.stderr).text(), proc.exited]);
  return { exitCode, stdout, stderr, events, durationMs: Math.round(performance.now() - started) };
}

export async function initGitRepo(dir: string): Promise<void> {
  const git = async (...args: string[]) => {
    const p = Bun.spawn(["git", ...args], { cwd: dir, env: { ...claudeEnv("", dir), HOME: dir }, stdout: "ignore", stderr: "pipe" });
    if ((await p.exited) !== 0) throw new Error(`git ${args.join(" ")}: ${await new Response(p.stderr).text()}`);
  };
  await git("init", "-q", "-b", "main");
  await Bun.write(`${dir}/README.md`, "fixture repo\n");
  await git("add", "README.md");
  await git("commit", "-q", "-m", "initial");
}
