/**
 * Tiny 127.0.0.1 stand-ins for the model APIs the real agent CLIs call, just enough of
 * each wire format to drive one scripted turn: the first request gets a tool call, the
 * request that carries the tool's result gets a text answer. Used by
 * record-provider-fixtures.ts so fixtures hold a real successful run without network.

 */
import { serveLocal } from "./lib/http.ts";
import { turnResponse } from "./fake-responses.ts";

export interface FakeServer {
  url: string;
  /** Paths requested, in order, for the recorder's README and for debugging. */
  requests: string[];
  stop(): void;
}

const SSE_HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

function sse(events: Array<{ event?: string; data: unknown }>): Response {
  const body = events
    .map((e) => `${e.event ? `event: ${e.event}\n` : ""}data: ${JSON.stringify(e.data)}\n\n`)
    .join("");
  return new Response(body, { headers: SSE_HEADERS });
}

// ---------- OpenAI Responses API (codex): its turns are fake-responses.ts's ----------

/** An HTTP error every request gets instead of a scripted turn, to record a CLI's real error handling. */
export interface FakeFailure {
  status: number;
  body: unknown;
}

function fail(failure: FakeFailure): Response {
  return Response.json(failure.body, { status: failure.status });
}

export async function startFakeOpenAI(opts: { command: string; answer: string; fail?: FakeFailure }): Promise<FakeServer> {
  const requests: string[] = [];
  const server = await serveLocal(async (req) => {
    const url = new URL(req.url);
    // Codex reports the sandbox it applies in a header: the recorder keeps it as evidence.
    const meta = req.headers.get("x-codex-turn-metadata");
    const sandbox = meta ? (JSON.parse(meta) as { sandbox_mode?: string }).sandbox_mode : undefined;
    requests.push(`${req.method} ${url.pathname}${sandbox ? ` (sandbox_mode=${sandbox})` : ""}`);
    if (opts.fail) return fail(opts.fail);
    if (!url.pathname.endsWith("/responses")) return Response.json({ data: [] });
    const body = (await req.json()) as { input?: Array<{ type?: string }> };
    const hasToolResult = (body.input ?? []).some((i) => i.type === "function_call_output");
    return turnResponse(hasToolResult ? { text: opts.answer } : { tool: "exec_command", args: { cmd: opts.command } });
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, stop: () => server.stop() };
}

// ---------- Gemini API (gemini-cli) ----------

interface GeminiContent {
  role?: string;
  parts?: Array<{ text?: string; functionCall?: unknown; functionResponse?: unknown }>;
}

const GEMINI_USAGE = { promptTokenCount: 900, candidatesTokenCount: 20, totalTokenCount: 920 };

export async function startFakeGemini(opts: {
  tool: { name: string; args: Record<string, unknown> };
  answer: string;
  fail?: FakeFailure;
  /**
   * A prompt whose text holds `text` (a message, a question) gets this tool call instead of `tool`;
   * with `history`, only when the contents before it (the session so far) hold that too.
   */
  on?: { text: string; history?: string; tool: { name: string; args: Record<string, unknown> } }[];
  /** The tool calls are answered once this settles: the model is still thinking while a test does something meanwhile. */
  hold?: Promise<unknown>;
}): Promise<FakeServer> {
  const requests: string[] = [];
  const server = await serveLocal(async (req) => {
    const url = new URL(req.url);
    requests.push(`${req.method} ${url.pathname}`);
    if (opts.fail) return fail(opts.fail);
    const body = (await req.json().catch(() => ({}))) as { contents?: GeminiContent[] };
    const modelVersion = url.pathname.match(/models\/([^:]+)/)?.[1] ?? "gemini-fake";
    if (url.pathname.endsWith(":countTokens")) return Response.json({ totalTokens: 900 });
    if (url.pathname.endsWith(":generateContent")) {
      // Side calls (model router, next-speaker and loop checks) ask for JSON.
      const text = JSON.stringify({
        reasoning: "a simple request",
        model_choice: "flash",
        complexity_reasoning: "a simple request",
        complexity_score: 10,
        next_speaker: "user",
      });
      return Response.json({
        candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: GEMINI_USAGE,
        modelVersion,
      });
    }
    if (!url.pathname.endsWith(":streamGenerateContent")) return new Response("not found", { status: 404 });
    const last = body.contents?.at(-1);
    const hasToolResult = (last?.parts ?? []).some((p) => p.functionResponse !== undefined);
    const chunk = (parts: unknown[], finish?: string) => ({
      data: {
        candidates: [{ content: { role: "model", parts }, index: 0, ...(finish ? { finishReason: finish } : {}) }],
        ...(finish ? { usageMetadata: GEMINI_USAGE } : {}),
        modelVersion,
      },
    });
    const said = (last?.parts ?? []).map((p) => p.text ?? "").join("");
    const before = JSON.stringify(body.contents?.slice(0, -1) ?? []);
    const tool = opts.on?.find((o) => said.includes(o.text) && (o.history === undefined || before.includes(o.history)))?.tool ?? opts.tool;
    if (!hasToolResult) {
      await opts.hold;
      return sse([chunk([{ functionCall: tool }], "STOP")]);
    }
    const words = opts.answer.split(/(?<= )/);
    return sse(words.map((w, i) => chunk([{ text: w }], i === words.length - 1 ? "STOP" : undefined)));
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop() };
}
