/**
 * The lines an ACP session's runner (src/acp/) writes to the session's output file, which the
 * daemon tails and `parseAcpLine` reads. Every JSON-RPC frame exchanged with the agent is written
 * as it was, tagged by direction (`send`: troupe to the agent; `recv`: the agent to troupe), so
 * `troupe logs --raw` shows the conversation as it went; the runner's own facts (an input it gave
 * the agent, the end of a turn, its own failure) are `troupe` lines beside them.
 */
export type RunnerLine =
  /** `replay`: a frame of the session's history that the agent sent again while loading it (`session/load`): not news. */
  | { acp: "send" | "recv"; msg: unknown; replay?: true }
  /** The ACP session the agent runs (from `session/new`, or the one `session/load` took up again). */
  | { troupe: "session"; sessionId: string; model?: string }
  /** An input (the prompt, a message, a question) the runner gave the agent, as a prompt or a part of one. */
  | { troupe: "input"; text: string; id?: string }
  /** A prompt turn ended (`session/prompt` answered): what the agent reported of its usage, where it did. */
  | { troupe: "turn"; stopReason: string; inputTokens?: number; outputTokens?: number; costUsd?: number }
  /** A tool call, once its input is known (src/acp/tool-calls.ts): what its frames said of it. */
  | { troupe: "tool"; toolCallId: string; kind?: string; title?: string; locations?: string[]; rawInput?: unknown }
  /** A permission request that no one answered in time, or that troupe could not ask about: denied. */
  | { troupe: "denied"; toolCallId: string; reason: string }
  /** The runner waits `ms` before it starts the agent, which cannot load its session sooner (`reason`). */
  | { troupe: "wait"; ms: number; reason: string }
  /** The runner failed: the agent did not start, broke the protocol, or ended mid-turn. */
  | { troupe: "error"; message: string };

/** One input as a line of the session's input (its prompt on stdin, each `NNN.line` after it). */
export interface InputLine {
  text: string;
  id?: string;
}

export const inputLine = (text: string, id?: string): string => JSON.stringify(id === undefined ? { text } : { text, id });

/** An input line as written, or null when it is not one. */
export function readInputLine(line: string): InputLine | null {
  try {
    const v = JSON.parse(line) as unknown;
    if (typeof v !== "object" || v === null || typeof (v as InputLine).text !== "string") return null;
    const id = (v as InputLine).id;
    return { text: (v as InputLine).text, ...(typeof id === "string" && { id }) };
  } catch {
    return null;
  }
}
