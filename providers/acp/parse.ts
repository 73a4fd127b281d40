import { executeCommand } from "./command.ts";
import type { OutputEvent } from "../../src/protocol/output.ts";
import { num, obj, str, stringify, type JsonObject } from "../json-line.ts";
import { planEntries, todoToolPlan } from "../plan.ts";

/**
 * One line the ACP runner wrote (providers/acp/lines.ts) as output events; null for a line that
 * is no runner line (the caller keeps it raw). Frames that say nothing a person reads (the
 * requests troupe sent, responses, the agent's command list) give no event: they stay in the raw
 * view. Pure, never throws on what a JSON object holds.
 */
export function parseRunnerLine(line: JsonObject): OutputEvent[] | null {
  if (line.acp === "recv") return line.replay === true ? [] : fromAgent(obj(line.msg) ?? {});
  if (line.acp === "send") return [];
  switch (line.troupe) {
    case "session": {
      const sessionId = str(line.sessionId);
      if (!sessionId) return null;
      const model = str(line.model);
      return [{ kind: "session", sessionId, ...(model && { model }) }];
    }
    case "input": {
      const text = str(line.text);
      if (text === undefined) return null;
      const id = str(line.id);
      return [{ kind: "input", text, ...(id && { id }) }];
    }
    case "turn": {
      const stopReason = str(line.stopReason) ?? "end_turn";
      const inputTokens = num(line.inputTokens);
      const outputTokens = num(line.outputTokens);
      const costUsd = num(line.costUsd);
      return [
        {
          kind: "result",
          isError: stopReason === "refusal",
          ...(stopReason !== "end_turn" && { text: `turn ended: ${stopReason}`, stopReason }),
          ...(inputTokens !== undefined && { inputTokens }),
          ...(outputTokens !== undefined && { outputTokens }),
          ...(costUsd !== undefined && { costUsd }),
        },
      ];
    }
    case "tool": {
      const call: OutputEvent = { kind: "tool_use", id: str(line.toolCallId), name: toolName(line), input: toolInput(line) };
      // an agent that keeps its plan with a to-do tool and sends no plan update (opencode, Kilo)
      const plan = todoToolPlan(line.rawInput);
      return plan ? [call, { kind: "plan", entries: plan }] : [call];
    }
    case "denied":
      return [{ kind: "tool_result", id: str(line.toolCallId), output: `troupe denied the call: ${str(line.reason) ?? "no answer"}`, isError: true }];
    case "wait": {
      const ms = num(line.ms);
      if (ms === undefined) return null;
      return [{ kind: "text", text: `troupe waits ${Math.ceil(ms / 1000)} s before starting the agent: ${str(line.reason) ?? "it cannot load its session sooner"}` }];
    }
    case "error":
      return [{ kind: "error", message: str(line.message) ?? "the ACP runner failed" }];
    default:
      return null;
  }
}

/** A frame from the agent: what its `session/update` notifications show; the rest is protocol. */
function fromAgent(msg: JsonObject): OutputEvent[] {
  if (msg.method === "session/request_permission") {
    const call = obj(obj(msg.params)?.toolCall) ?? {};
    return [{ kind: "text", text: `asks permission: ${str(call.title) ?? str(call.toolCallId) ?? "a tool call"}` }];
  }
  if (msg.method !== "session/update") return [];
  const u = obj(obj(msg.params)?.update) ?? {};
  switch (u.sessionUpdate) {
    case "agent_message_chunk": {
      const text = contentText(u.content);
      return text ? [{ kind: "text", text, delta: true }] : [];
    }
    // a call is shown from the runner's `tool` line, once its input is known
    case "tool_call_update": {
      const status = str(u.status);
      if (status !== "completed" && status !== "failed") return [];
      return [{ kind: "tool_result", id: str(u.toolCallId), output: toolOutput(u), isError: status === "failed" }];
    }
    case "plan":
      return [{ kind: "plan", entries: planEntries(u.entries) }];
    default:
      return [];
  }
}

/** A tool call's name as the output shows it: its kind (execute, edit, read, ...) and what it is about. */
function toolName(u: JsonObject): string {
  return str(u.kind) ?? "tool";
}

function toolInput(u: JsonObject): string {
  const title = str(u.title) ?? "";
  const paths = (Array.isArray(u.locations) ? u.locations : []).map((l) => str(l) ?? str(obj(l)?.path)).filter((p) => p !== undefined);
  // a command run: its command alone (Codex's adapter sends ids and timings beside it), unless the title is that command
  const command = str(u.kind) === "execute" ? executeCommand(u.rawInput) : undefined;
  const input = command ?? (u.rawInput !== undefined ? stringify(u.rawInput) : "");
  return [title, ...paths.filter((p) => !title.includes(p)), input === title ? "" : input].filter(Boolean).join(" ");
}

/** What a finished tool call's content says: its text, and each diff as a unified diff of the file. */
function toolOutput(u: JsonObject): string {
  const parts: string[] = [];
  for (const c of Array.isArray(u.content) ? u.content : []) {
    const block = obj(c) ?? {};
    if (block.type === "content") parts.push(contentText(block.content));
    else if (block.type === "diff") parts.push(diffText(block));
  }
  // a command's output as the agent gave it raw (Codex's adapter: an object with its `aggregated_output`)
  const raw = obj(u.rawOutput);
  const said = raw ? (str(raw.aggregated_output) ?? str(raw.formatted_output)) : undefined;
  if (!parts.some(Boolean) && u.rawOutput !== undefined) parts.push(said ?? stringify(u.rawOutput));
  return parts.filter(Boolean).join("\n");
}

function contentText(content: unknown): string {
  const c = obj(content);
  return c?.type === "text" ? (str(c.text) ?? "") : "";
}

/** A diff content block (path, oldText, newText) as the lines of a unified diff, whole file in one hunk. */
function diffText(block: JsonObject): string {
  const path = str(block.path) ?? "file";
  const before = str(block.oldText);
  const after = str(block.newText) ?? "";
  const old = before === undefined ? [] : before.split("\n");
  const now = after.split("\n");
  return [`--- ${before === undefined ? "/dev/null" : `a/${path}`}`, `+++ b/${path}`, ...old.map((l) => `-${l}`), ...now.map((l) => `+${l}`)].join("\n");
}
