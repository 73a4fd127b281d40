import type * as acp from "@agentclientprotocol/sdk";
import type { SessionLog } from "./session-log.ts";

type Known = { kind?: string | null; title?: string | null; locations?: acp.ToolCallLocation[] | null; rawInput?: unknown };

/**
 * The session's tool calls as a person reads them: one `tool` line each, written once its input is
 * known. An agent may announce a call before it has its arguments (opencode's first `tool_call`
 * is `pending` with only its folder; the command comes in a `tool_call_update`), so a call is shown
 * once its input holds an argument, or when it starts to run, finishes, or is asked about, with what
 * every frame so far said of it. Copilot CLI 1.0.102 sends a call `pending` with its command and
 * next `completed`: shown at once, not only when a long command is over.
 */
export class ToolCalls {
  private readonly calls = new Map<string, Known & { shown: boolean }>();

  constructor(private readonly log: SessionLog) {}

  /** A `session/update` of the runner's own session (not a replayed one). */
  update(u: acp.SessionUpdate): void {
    if (u.sessionUpdate !== "tool_call" && u.sessionUpdate !== "tool_call_update") return;
    const call = this.merge(u.toolCallId, u);
    if ((u.status && u.status !== "pending") || hasArguments(call.rawInput)) this.show(u.toolCallId, call);
  }

  /** The call of a permission request: the agent asks about it with its input. */
  asked(toolCall: acp.ToolCallUpdate): void {
    this.show(toolCall.toolCallId, this.merge(toolCall.toolCallId, toolCall));
  }

  private merge(id: string, u: Known): Known & { shown: boolean } {
    const was = this.calls.get(id) ?? { shown: false };
    const now = {
      ...was,
      ...(u.kind != null && { kind: u.kind }),
      ...(u.title != null && { title: u.title }),
      ...(u.locations != null && { locations: u.locations }),
      ...(u.rawInput !== undefined && { rawInput: u.rawInput }),
    };
    this.calls.set(id, now);
    return now;
  }

  private show(id: string, call: Known & { shown: boolean }): void {
    if (call.shown) return;
    call.shown = true;
    this.log.write({
      troupe: "tool",
      toolCallId: id,
      ...(call.kind && { kind: call.kind }),
      ...(call.title && { title: call.title }),
      ...(call.locations?.length && { locations: call.locations.map((l) => l.path) }),
      ...(call.rawInput !== undefined && { rawInput: call.rawInput }),
    });
  }
}

/** An input that says what the call does: some field besides the folder it runs in. */
function hasArguments(input: unknown): boolean {
  return !!input && typeof input === "object" && Object.keys(input).some((k) => k !== "cwd");
}
