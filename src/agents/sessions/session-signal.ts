import { TroupeError } from "../../errors.ts";
import type { Signal } from "../../protocol/signal.ts";
import type { AgentRecord } from "../../store/agents.ts";
import type { SessionRecord } from "../../store/sessions.ts";
import type { Store } from "../../store/index.ts";
import type { Logger } from "../../events/log.ts";
import { readSetupFailure } from "../processes/launch-detached.ts";
import { foreignSignal, parseSignal, readSignalFile, signalText, writeSignalFile, type SignalRead } from "../files/signal.ts";

/** How the session wrapper's error starts when `worktree.setup` failed (lifecycle/outcome.ts classes it `setup`). */
export const SETUP_FAILED = "setup failed:";

/**
 * How a session ended, in its agent's words: the signal the daemon recorded for it (`troupe
 * signal` goes through the daemon, which knows which session sent what), or the failure of its
 * `worktree.setup` (written by troupe's own wrapper, beside the exit status). A file at the signal
 * path that nobody sent through the daemon is not the agent's word: it is `foreign`, named in the
 * failure (another agent's planted result, a script writing the file by hand). A session started
 * by a troupe that did not record signals yet (an upgrade with agents running) is read from its
 * file as it was then.
 */
export function sessionSignal(rec: AgentRecord, sess: SessionRecord): SignalRead {
  if (sess.signalJson !== null) {
    const read = parseSignal(sess.signalJson);
    // checked when it was recorded: a row that no longer parses is a damaged store, said as such
    return read.kind === "ok" ? read : { kind: "malformed", reason: `the recorded signal: ${read.reason}` };
  }
  const setup = readSetupFailure(sess.exitPath);
  if (setup !== null) return { kind: "ok", signal: { status: "error", error: `${SETUP_FAILED} worktree.setup exited ${setup} (its output is in the agent log)` } };
  return sess.signalFromFile ? readSignalFile(rec.signalFile) : foreignSignal(rec.signalFile);
}

/**
 * Stores `signal` as `rec`'s own, for its current session (`POST /v1/signal`): recorded in the
 * store first (the session's end takes the record, never a file nobody sent through here; a daemon
 * killed right after still has it), then written to that agent's signal file (never a path a
 * caller names) for the agent to read back. A run ends with one signal: another one is refused,
 * the first stands; the same one again changes nothing (a client that lost the answer sends it
 * again). A file that cannot be written (a link on the way) takes the record back: the agent is told.
 */
export function recordSignal(d: { store: Store; log: Logger; ws: { stateDir: string } }, rec: AgentRecord, signal: Signal): void {
  const text = signalText(signal);
  const json = text.trimEnd();
  const { sessions } = d.store;
  const r = sessions.recordSignal(rec.id, rec.session, json);
  switch (r.kind) {
    case "ended":
      throw new TroupeError("invalid_state", `${rec.name}'s run ${rec.session} has ended; a signal belongs to the run that sends it`);
    case "taken": {
      const first = JSON.parse(r.first) as Signal;
      throw new TroupeError("conflict", `${rec.name} already signalled ${first.status} in this run; a run ends with one signal, and the first stands`);
    }
    case "same":
      try {
        writeSignalFile(rec.signalFile, d.ws.stateDir, text);
      } catch (err) {
        d.log.warn(`${rec.name}: the signal recorded before could not be written to ${rec.signalFile} again`, err);
      }
      return;
    case "recorded":
      try {
        writeSignalFile(rec.signalFile, d.ws.stateDir, text);
      } catch (err) {
        sessions.forgetSignal(rec.id, rec.session, json);
        throw err;
      }
  }
}
