/**
 * A tiny ACP agent for the runner's benchmarks (acp-runner.ts, acp-permission.ts,
 * acp-next-prompt.ts), on the SDK's agent side: it answers `initialize`, `session/new` (modes as
 * Gemini CLI names them, so the runner's `--mode` finds its own), `session/set_mode` and
 * `session/prompt`, calls no model, and writes what it saw as JSON lines to $BENCH_ACP_RECORD,
 * each time as `performance.timeOrigin + performance.now()` (ms, comparable across processes).
 * What a prompt does is $BENCH_ACP_MODE:
 *   idle   the turn ends at once; then nothing, until its stdin closes
 *   ask    the first turn asks permission $BENCH_ACP_ASKS times, one after the other, $BENCH_ACP_GAP_MS
 *          apart, recording each ask and answer; then it holds the turn until it is cancelled
 *   turns  each prompt is recorded, the turn held $BENCH_ACP_HOLD_MS and ended (recorded); after
 *          $BENCH_ACP_TURNS turns the next is held until it is cancelled
 * Run with bun: `bun scripts/bench/acp-agent.ts` (any arguments are ignored: it stands in for `gemini --acp`).
 */
import { appendFileSync } from "node:fs";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";

const env = process.env;
const MODE = env.BENCH_ACP_MODE ?? "idle";
const RECORD = env.BENCH_ACP_RECORD;
const ASKS = Number(env.BENCH_ACP_ASKS ?? 100);
const GAP_MS = Number(env.BENCH_ACP_GAP_MS ?? 50);
const TURNS = Number(env.BENCH_ACP_TURNS ?? 100);
const HOLD_MS = Number(env.BENCH_ACP_HOLD_MS ?? 150);

const now = (): number => performance.timeOrigin + performance.now();
const record = (fields: Record<string, unknown>): void => {
  if (RECORD) appendFileSync(RECORD, `${JSON.stringify(fields)}\n`);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cancelled: (() => void) | null = null;
/** Until the client cancels the turn (`session/cancel`, or the request's own abort). */
const untilCancelled = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    cancelled = resolve;
    signal.addEventListener("abort", () => resolve(), { once: true });
  });

const MODES: acp.SessionModeState = {
  currentModeId: "default",
  availableModes: ["default", "autoEdit", "yolo", "plan"].map((id) => ({ id, name: id })),
};

let turn = 0;
async function prompt({ params, client, signal }: { params: acp.PromptRequest; client: acp.AgentContext; signal: AbortSignal }): Promise<acp.PromptResponse> {
  const k = turn++;
  const text = params.prompt.map((b) => (b.type === "text" ? b.text : "")).join("");
  record({ prompt: k, at: now(), pid: process.pid, text: text.slice(-200) });
  if (MODE === "ask" && k === 0) {
    for (let i = 0; i < ASKS; i++) {
      const command = `echo bench-ask-${i}`;
      const asked = now();
      const r = await client.request(acp.methods.client.session.requestPermission, {
        sessionId: params.sessionId,
        toolCall: { toolCallId: `ask-${i}`, title: command, kind: "execute", rawInput: { command } },
        options: [
          { optionId: "allow", name: "Allow", kind: "allow_once" },
          { optionId: "reject", name: "Reject", kind: "reject_once" },
        ],
      });
      const answered = now();
      record({ ask: i, command, asked, answered, outcome: r.outcome.outcome === "selected" ? r.outcome.optionId : r.outcome.outcome });
      await sleep(GAP_MS);
    }
    record({ asked: ASKS });
  }
  if (MODE === "turns" && k < TURNS) {
    await sleep(HOLD_MS);
    record({ end: k, at: now() });
    return { stopReason: "end_turn" };
  }
  if (MODE !== "idle") {
    await untilCancelled(signal);
    return { stopReason: "cancelled" };
  }
  return { stopReason: "end_turn" };
}

const app = acp
  .agent({ name: "troupe-bench-agent" })
  .onRequest(acp.methods.agent.initialize, () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false } }))
  .onRequest(acp.methods.agent.session.new, () => ({ sessionId: `bench-${process.pid}`, modes: MODES }))
  .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
    MODES.currentModeId = params.modeId;
    return {};
  })
  .onRequest(acp.methods.agent.session.prompt, prompt)
  .onNotification(acp.methods.agent.session.cancel, () => cancelled?.());

const stream = acp.ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>);
await app.connect(stream).closed;
process.exit(0);
