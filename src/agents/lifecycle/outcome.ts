import type { SignalRead } from "../files/signal.ts";
import type { Diagnosis } from "./diagnose.ts";
import { oneLineEvidence } from "./diagnose.ts";
import type { Failure } from "../../protocol/failure.ts";
import { assertNever } from "../../errors.ts";
import { SETUP_FAILED } from "../sessions/session-signal.ts";

/** A path as one shell word (as the prompts write it). */
const shellWord = (path: string): string => (/^[\w./-]+$/.test(path) ? path : `'${path.replace(/'/g, "'\\''")}'`);


/**
 * The class of a failed run. The signal file decides first: an agent that signalled an error says
 * its class (or none: `unknown`, the agent's own verdict, never retried); a malformed one is
 * `bad_output`. Without a signal the provider's diagnosis explains it; else the exit status does:
 * killed by a signal troupe did not send (128 + n) or gone without a status (a reboot) is
 * `interrupted`, an ordinary exit is `missing_signal`. Null for a run that did not fail.
 */
export function classifyEnd(read: SignalRead, exitCode: number | null, diagnosis: Diagnosis | null): Diagnosis | null {
  switch (read.kind) {
    case "ok":
      if (read.signal.status !== "error") return null;
      return { failure: read.signal.class ?? (read.signal.error.startsWith(SETUP_FAILED) ? "setup" : "unknown"), evidence: oneLineEvidence(read.signal.error) };
    case "malformed":
    case "unreadable":
      return { failure: "bad_output", evidence: oneLineEvidence(`the signal file: ${read.reason}`) };
    case "foreign":
      // the agent's own signal is missing, whatever someone else left at its path
      if (diagnosis) return diagnosis;
      return { failure: "missing_signal", evidence: oneLineEvidence(`ended (exit ${exitCode ?? "unknown"}) without a signal of its own; its signal file holds one troupe did not write for it: ${read.found}`) };
    case "missing":
      if (diagnosis) return diagnosis;
      if (exitCode === null) return { failure: "interrupted", evidence: "the process vanished without an exit status (a reboot, or its wrapper was killed)" };
      if (exitCode > 128) return { failure: "interrupted", evidence: `killed by signal ${exitCode - 128} (exit ${exitCode}), not sent by troupe` };
      return { failure: "missing_signal", evidence: `exited with code ${exitCode} without a signal` };
    default:
      return assertNever(read);
  }
}

/** What a resumed session is told, per class: exactly what is missing or malformed, or what happened. */
export function recoveryPrompt(failure: Failure, troupe: string): string {
  const t = shellWord(troupe);
  const signalHow = `Run \`${t} signal done --result "<summary>"\` (or \`${t} signal questions --question "..."\`, or \`${t} signal error --error "..."\`).`;
  switch (failure.class) {
    case "missing_signal":
      return `Your last run ended (${failure.evidence}) without telling troupe how it ended: the signal is missing. If the task is finished, signal it now; otherwise finish it first. ${signalHow}`;
    case "bad_output":
      return `Your last run's output could not be read: ${failure.evidence}. Write it again, well-formed. ${signalHow}`;
    case "interrupted":
      return `Your last run was interrupted (${failure.evidence}). Check the state of your work, continue the task where it stopped, and end with the signal as before. ${signalHow}`;
    default:
      return `Your last run failed (${failure.class}: ${failure.evidence}). Continue the task where it stopped, and end with the signal as before. ${signalHow}`;
  }
}
