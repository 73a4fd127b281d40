import type { SignalRead } from "../files/signal.ts";
import type { AgentPatch } from "../../store/agents.ts";
import { assertNever } from "../../errors.ts";

/** What an ended session means for its agent: the signal file decides, the exit code only explains. */
export function completionPatch(read: SignalRead, exitCode: number | null): AgentPatch {
  const base: AgentPatch = { exitCode, lastActivityAt: Date.now() };
  switch (read.kind) {
    case "ok": {
      const s = read.signal;
      switch (s.status) {
        case "done":
          return { ...base, status: "done", result: s.result ?? null, error: null, questions: null };
        case "questions":
          return { ...base, status: "waiting", questions: s.questions, error: null };
        case "error":
          return { ...base, status: "failed", error: s.error, questions: null };
        default:
          return assertNever(s);
      }
    }
    case "missing": {
      const how = exitCode === null ? "ended (killed, exit status unknown)" : `exited with code ${exitCode}`;
      return { ...base, status: "failed", error: `${how} without a signal (the agent must end with 'troupe signal')`, questions: null };
    }
    case "malformed":
      return { ...base, status: "failed", error: `malformed signal file: ${read.reason}`, questions: null };
    case "unreadable":
      return { ...base, status: "failed", error: `signal file refused: ${read.reason}`, questions: null };
    case "foreign":
      return {
        ...base,
        status: "failed",
        error: `signal file refused: ${read.path} holds ${read.found}, which troupe did not write for this session (an agent's signal counts only when sent with 'troupe signal')`,
        questions: null,
      };
    default:
      return assertNever(read);
  }
}
