import { readFileSync } from "node:fs";
import * as acp from "@agentclientprotocol/sdk";
import type { TroupeClient } from "../client/client.ts";
import { awaitPermission } from "../client/permission-wait.ts";
import { decideByRules, type RuleSet } from "../permissions/rules.ts";
import { readInputLine, type InputLine } from "../../providers/acp/lines.ts";
import { startAgent, type AgentProcess } from "./agent-process.ts";
import { Inbox } from "./inbox.ts";
import { answerOf, toolCallOf } from "./permission.ts";
import { SessionLog } from "./session-log.ts";
import { modeSwitch, type ModeSwitch } from "./session-mode.ts";
import { ToolCalls } from "./tool-calls.ts";
import { addUpdateUsage, sessionCostOf, turnCost, turnUsage, type Usage } from "./usage.ts";

export interface RunnerOptions {
  /** The agent CLI in its ACP mode (`gemini --acp`). */
  argv: string[];
  cwd: string;
  /** troupe's permission mode for the session: only `ask` asks the person; under any other a request is refused. */
  permissions: string;
  /** The ACP session mode that realises it (src/acp/session-mode.ts), when it is not the agent's default. */
  mode?: string;
  /** The ACP session to take up again (`session/load`), when resuming. */
  load?: string;
  /** The earliest the agent may be started to load it (epoch ms): the provider's, for an agent that cannot load a session sooner. */
  loadAfter?: number;
  /** troupe's MCP server for the agent: its command and the environment it needs, by value. */
  mcp?: { command: string; args: string[]; env: Record<string, string> };
  /** The session's input folder (its messages and questions), null when it has none. */
  inputDir: string | null;
  /** The agent's environment (the runner's own, less what is the runner's). */
  env: Record<string, string>;
  /** Values never written to the session's output (the agent's token). */
  secrets: string[];
  /** Under a mode that asks no one: the rules that decide what the agent asks (a deny first; anything they do not allow is denied). */
  rules: RuleSet;
  /** The longest a tool call waits for the person before it is denied. */
  permissionWaitMs: number;
  /** The longest the agent may take to answer `initialize` and start its session. */
  startMs: number;
  client: () => TroupeClient;
}

class RunnerError extends Error {}

/**
 * One agent session over the Agent Client Protocol, for as long as the session lasts: the agent
 * CLI's stdio is this process's, so the session outlives the daemon (which only tails the
 * session's output file, this process's stdout, and writes its input folder). troupe is the ACP
 * client and serves no client capability (no fs, no terminal): the agent uses its own tools.
 * Returns the exit status the session ends with: the agent's own when it ended by itself.
 */
export async function runAcpSession(o: RunnerOptions): Promise<number> {
  const log = new SessionLog(1, o.secrets);
  const first = readInputLine(readFileSync(0, "utf8").split("\n")[0] ?? "");
  if (!first) {
    log.write({ troupe: "error", message: "the ACP runner got no prompt on its stdin (a JSON line {text, id?})" });
    return 2;
  }
  const wait = o.load && o.loadAfter !== undefined ? o.loadAfter - Date.now() : 0;
  if (wait > 0) {
    log.write({ troupe: "wait", ms: wait, reason: `${o.argv[0]} cannot load session ${o.load} sooner` });
    await new Promise((r) => setTimeout(r, wait));
  }
  let agent: AgentProcess;
  try {
    agent = startAgent(o.argv, o.cwd, o.env);
  } catch (err) {
    log.write({ troupe: "error", message: `could not start ${o.argv[0]}: ${err instanceof Error ? err.message : String(err)}` });
    return 127;
  }
  const inbox = o.inputDir ? new Inbox(o.inputDir) : null;
  // frames the agent sends while it loads a session replay its history: kept, marked, not shown again
  let replaying = false;
  const raw = acp.ndJsonStream(agent.input, agent.output);
  const recv = log.tap("recv", () => replaying);
  const send = log.tap("send");
  void raw.readable.pipeTo(recv.writable).catch(() => {});
  void send.readable.pipeTo(raw.writable).catch(() => {});
  const session: { id: string | null } = { id: null };
  const tools = new ToolCalls(log);
  // what the current turn's updates report of its usage, for an agent whose answer to the prompt says none
  let during: Usage = {};
  // the session's cost before the current turn and at its last report (src/acp/usage.ts turnCost); unknown before a loaded session's
  const cost: { base: number | undefined; now: number | undefined } = { base: o.load ? undefined : 0, now: undefined };
  const app = acp
    .client({ name: "troupe" })
    .onRequest(acp.methods.client.session.requestPermission, askTroupe(o, log, session, tools))
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      if (params.sessionId !== (session.id ?? o.load)) return;
      if (replaying) {
        cost.base = sessionCostOf(params.update) ?? cost.base;
        return;
      }
      cost.now = sessionCostOf(params.update) ?? cost.now;
      during = addUpdateUsage(during, params.update);
      tools.update(params.update);
    });
  let exit: number | null = null;
  void agent.exited.then((c) => (exit = c));
  const stopped = onTerm(agent);
  let code = 0;
  try {
    code = await app.connectWith({ readable: recv.readable, writable: send.writable }, async (ctx) => {
      const ended = agent.exited.then((c) => {
        throw new RunnerError(endedText(o, c));
      });
      const within = <T>(p: Promise<T>, ms: number, what: string): Promise<T> =>
        Promise.race([p, ended, new Promise<never>((_, rej) => setTimeout(() => rej(new RunnerError(`${o.argv[0]} did not ${what} within ${ms / 1000} s`)), ms).unref?.())]);
      const init = await within(ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {}, clientInfo: { name: "troupe", version: "1" } }), o.startMs, "answer initialize");
      const mcpServers: acp.McpServer[] = o.mcp ? [{ name: "troupe", command: o.mcp.command, args: o.mcp.args, env: Object.entries(o.mcp.env).map(([name, value]) => ({ name, value })) }] : [];
      let modes: ModeSwitch | null;
      if (o.load) {
        // a resume keeps the agent's context, or fails saying why: never a fresh session in its place
        if (!init.agentCapabilities?.loadSession) throw new RunnerError(`${o.argv[0]} cannot load a session over ACP (it does not offer loadSession), so session ${o.load} cannot be resumed`);
        replaying = true;
        const loaded = await within(ctx.request(acp.methods.agent.session.load, { sessionId: o.load, cwd: o.cwd, mcpServers }), o.startMs, "load its session").finally(() => (replaying = false));
        session.id = o.load;
        modes = modeSwitch(loaded);
      } else {
        const s = await within(ctx.request(acp.methods.agent.session.new, { cwd: o.cwd, mcpServers }), o.startMs, "start a session");
        session.id = s.sessionId;
        modes = modeSwitch(s);
      }
      const sid: string = session.id;
      log.write({ troupe: "session", sessionId: sid });
      if (o.mode && modes?.current !== o.mode) {
        if (!modes?.available.includes(o.mode)) throw new RunnerError(`${o.argv[0]} offers no session mode ${o.mode} (it offers ${modes?.available.join(", ") || "none"})`);
        await within(modes.set(ctx, sid, o.mode), o.startMs, "set its mode");
      }
      stopped.cancel = () => void ctx.notify(acp.methods.agent.session.cancel, { sessionId: sid });
      let items: InputLine[] = [first];
      for (;;) {
        for (const i of items) log.write({ troupe: "input", text: i.text, ...(i.id && { id: i.id }) });
        const text = items.map((i) => i.text).join("\n\n");
        during = {};
        const r = await Promise.race([ctx.request(acp.methods.agent.session.prompt, { sessionId: sid, prompt: [{ type: "text", text }] }), ended]);
        const costUsd = turnCost(cost.base, cost.now);
        cost.base = cost.now ?? cost.base;
        cost.now = undefined;
        log.write({ troupe: "turn", stopReason: r.stopReason, ...turnUsage(r, during), ...(costUsd !== undefined && { costUsd }) });
        if (stopped.requested || !inbox) return 0;
        const next = await nextInputs(inbox, () => exit);
        if (next === null) return 0;
        items = next;
      }
    });
  } catch (err) {
    if (!stopped.requested) {
      // the agent's stdout closing rejects what waits on it before its exit is seen: give the exit a moment
      const c = exit ?? (await settled(agent.exited, 2000));
      log.write({ troupe: "error", message: failureText(o, err, c) });
      code = c === null || c === 0 ? 1 : c;
    }
  } finally {
    inbox?.close();
  }
  await endAgent(agent);
  // a stopped session ends as a stopped process does, whatever the agent made of its cancel
  return stopped.requested ? 143 : code;
}

const endedText = (o: RunnerOptions, c: number) => `${o.argv[0]} ended (exit ${c}) while troupe waited for it`;

/** Why the session failed, in one line: the runner's own finding, a frame over the limit, the agent's end, or the protocol's error. */
function failureText(o: RunnerOptions, err: unknown, exit: number | null): string {
  if (err instanceof RunnerError) return err.message;
  if (err instanceof acp.MessageTooLargeError) return `${o.argv[0]} sent a message over ${err.maxMessageBytes / 1024 / 1024} MB (ACP's limit): its session is ended`;
  if (exit !== null) return endedText(o, exit);
  return `the ACP session failed: ${errorText(err)}`;
}

/**
 * `session/request_permission`: troupe's rules, then the person, through the daemon (as Claude's
 * permission tool asks); a request for another session than this runner's is refused.
 */
function askTroupe(o: RunnerOptions, log: SessionLog, session: { id: string | null }, tools: ToolCalls) {
  return async ({ params, signal }: { params: acp.RequestPermissionRequest; signal: AbortSignal }): Promise<acp.RequestPermissionResponse> => {
    const id = params.toolCall.toolCallId;
    if (params.sessionId !== session.id) {
      log.write({ troupe: "denied", toolCallId: id, reason: `the agent asked for session ${params.sessionId}, not its own (${session.id}): refused` });
      throw acp.RequestError.invalidParams(undefined, `no session ${params.sessionId} here`);
    }
    tools.asked(params.toolCall);
    if (o.permissions !== "ask") {
      const call = toolCallOf(params.toolCall);
      const verdict = decideByRules(o.rules, call.toolName, call.input, o.cwd);
      if (verdict?.behavior === "allow") return answerOf(params, { status: "allowed" });
      log.write({ troupe: "denied", toolCallId: id, reason: verdict ? `denied by the rule ${verdict.rule}` : `the agent runs in permission mode ${o.permissions}, which asks no one, and no rule allows it` });
      return answerOf(params, { status: "denied" });
    }
    try {
      const r = await awaitPermission(o.client(), { ...toolCallOf(params.toolCall), toolUseId: id }, Date.now() + o.permissionWaitMs, signal);
      if (r.status === "pending") log.write({ troupe: "denied", toolCallId: id, reason: `no answer from the person within ${Math.round(o.permissionWaitMs / 1000)} s` });
      return answerOf(params, r);
    } catch (err) {
      log.write({ troupe: "denied", toolCallId: id, reason: `troupe could not ask the person: ${err instanceof Error ? err.message : String(err)}` });
      return answerOf(params, { status: "denied" });
    }
  };
}

/** The inputs waiting once a turn is over, claimed; null when the stream was closed with nothing waiting. Throws once the agent is gone. */
async function nextInputs(inbox: Inbox, exited: () => number | null): Promise<InputLine[] | null> {
  for (;;) {
    const lines = inbox.take();
    if (lines.length) return lines;
    if (inbox.closed()) return null;
    const c = exited();
    if (c !== null) throw new RunnerError(`the agent ended (exit ${c}) between turns`);
    await inbox.changed();
  }
}

/** The session is over for troupe: the agent reads end-of-file on its stdin, and its group is ended when it does not go at once. */
async function endAgent(agent: AgentProcess): Promise<number | null> {
  agent.child.stdin?.end();
  const code = await settled(agent.exited, 1000);
  if (code !== null) return code;
  agent.end();
  return settled(agent.exited, 7000);
}

function settled<T>(p: Promise<T>, ms: number): Promise<T | null> {
  return Promise.race([p, new Promise<null>((r) => setTimeout(() => r(null), ms).unref?.())]);
}

/** How long a cancelled turn may take to wind down before the agent's group is ended. */
const CANCEL_GRACE_MS = 2000;

/**
 * SIGTERM (troupe stop, to the session's process group; the agent's own group is apart): the turn
 * is cancelled (`session/cancel`); the agent's group is ended once the turn is over, or after a
 * grace when the agent does not end it.
 */
function onTerm(agent: AgentProcess): { requested: boolean; cancel: (() => void) | null } {
  const state = { requested: false, cancel: null as (() => void) | null };
  process.on("SIGTERM", () => {
    if (state.requested) return;
    state.requested = true;
    state.cancel?.();
    setTimeout(() => agent.end(), state.cancel ? CANCEL_GRACE_MS : 0).unref?.();
  });
  return state;
}

/** An error as one line: a JSON-RPC error's message and the details the agent gave with it. */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const data = (err as { data?: unknown }).data;
  // what the agent says of it: `details` (Gemini CLI's), or `message` (Codex's adapter: "unexpected status 401 ...")
  const said = (k: string) => (data && typeof data === "object" && typeof (data as Record<string, unknown>)[k] === "string" ? ((data as Record<string, string>)[k] as string) : null);
  const details = said("details") ?? said("message");
  return details ? `${err.message}: ${details.split("\n")[0]}` : err.message;
}
