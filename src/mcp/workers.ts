import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { withReconnect } from "../client/reconnect.ts";
import type { Agent } from "../protocol/entities.ts";
import { isLive } from "../protocol/status.ts";
import type { McpContext } from "./context.ts";
import { agentView, text } from "./result.ts";

/** How long one wait request is held by the daemon (it holds ≤ 60 s) before the server asks again. */
const POLL_WINDOW_MS = 30_000;
/** However short the wait, a daemon restart in the middle of it is ridden out this long. */
const RECONNECT_MS = 15_000;

export interface WorkerInput {
  provider?: string;
  profile?: string;
  command?: string;
  /** Unset only with a command (the daemon refuses a CLI without one). */
  prompt?: string;
  name?: string;
  model?: string;
  worktree?: boolean;
  baseRef?: string;
}

/** How a worker is told who started it and what is expected back. */
export type Briefing = "handoff" | "assign" | null;

function briefing(ctx: McpContext, how: Briefing): string {
  const who = ctx.self ? `the agent ${ctx.self.name} (${ctx.self.id})` : "the person";
  if (how === "handoff") {
    return `\n\n---\nThis task was handed to you by ${who}, which is waiting for your result: end your run with \`troupe signal done --result "<what you did and found>"\` (or questions, or an error) and it gets exactly that.`;
  }
  if (how === "assign") {
    const to = ctx.self ? "supervisor" : "user";
    return `\n\n---\nThis task was assigned to you by ${who}, which is not waiting: when you are done, report back with the send_message tool ({"to": "${to}", "text": "<your report>"}, mcp__troupe__send_message in Claude) or \`troupe send --${to} "<your report>"\`, then end your run with \`troupe signal done --result "<summary>"\`.`;
  }
  return "";
}

/** The provider a worker runs on: the one asked for; the profile's; a command's generic; else the caller's own CLI; else claude. */
async function providerFor(ctx: McpContext, input: WorkerInput): Promise<string | undefined> {
  if (input.provider) return input.provider;
  if (input.profile) return undefined;
  if (input.command) return "generic";
  if (ctx.self) {
    const me = await ctx.client.agent(ctx.self.id).catch(() => null);
    if (me && me.provider !== "generic") return me.provider;
  }
  return "claude";
}

/** Starts a worker as the caller's child (the daemon records the parent from the caller's token). */
export async function startWorker(ctx: McpContext, input: WorkerInput, how: Briefing): Promise<Agent> {
  return ctx.client.spawn({
    provider: await providerFor(ctx, input),
    profile: input.profile,
    prompt: input.prompt === undefined ? undefined : input.prompt + briefing(ctx, how),
    command: input.command,
    name: input.name,
    model: input.model,
    worktree: input.worktree ?? true,
    baseRef: input.baseRef,
    env: ctx.env,
  });
}

/**
 * The agent once it is not live, or as it is after `ms`. Each request is a server-side long poll
 * woken by the daemon's bus; a daemon that goes away meanwhile (`kill -9`, an upgrade) is started
 * again by the client's next request, and the wait goes on with the new one.
 */
export async function waitForAgent(ctx: McpContext, ref: string, ms: number, signal?: AbortSignal): Promise<Agent> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = Math.max(0, deadline - Date.now());
    const a = await withReconnect(Math.max(deadline, Date.now() + RECONNECT_MS), () => ctx.client.waitAgent(ref, { wait: Math.min(POLL_WINDOW_MS, left) }, signal));
    if (!isLive(a.status) || Date.now() >= deadline || signal?.aborted) return a;
  }
}

/** A waited-for worker as the model reads it: its result, its questions, its error, or how to keep waiting. */
export function outcome(a: Agent, waitedMs: number): CallToolResult {
  const who = `${a.name} (${a.id})`;
  const view = { type: "text" as const, text: JSON.stringify(agentView(a)) };
  const say = (body: string, isError = false): CallToolResult => ({ ...text(body, isError), content: [{ type: "text", text: body }, view] });
  switch (a.status) {
    case "done":
      return say(`${who} is done. Its result:\n\n${a.result ?? "(it gave no result)"}`);
    case "waiting": {
      const qs = (a.questions ?? []).map((q) => `- [${q.id}] ${q.question}`).join("\n");
      return say(`${who} has questions:\n${qs}\n\nAnswer them with \`troupe resume ${a.name} --answer ID=TEXT\`, then call wait_agent {"agent": "${a.id}"}.`);
    }
    case "failed":
      return say(`${who} failed: ${a.error ?? "(no reason given)"}`, true);
    case "stopped":
      return say(`${who} was stopped before it finished.`, true);
    case "blocked": {
      // every account of its provider is spent: it resumes by itself at the reset, not sooner
      const at = a.retryAt ? ` It resumes by itself at ${new Date(a.retryAt).toISOString()}` : "";
      return say(`${who} is blocked: ${a.error ?? "every account of its provider is spent"}.${at}; call wait_agent {"agent": "${a.id}"} then.`);
    }
    case "attached":
      return say(`${who} is attached: the person runs it interactively; call wait_agent {"agent": "${a.id}"} to wait until they are back.`);
    case "starting":
    case "running":
      return say(`${who} is still ${a.status} after ${Math.round(waitedMs / 1000)} s; call wait_agent {"agent": "${a.id}"} to keep waiting.`);
  }
}
