import type { AgentRecord } from "../../store/agents.ts";
import type { SessionRecord } from "../../store/sessions.ts";
import { readSetupFailure } from "../processes/launch-detached.ts";
import { foreignSignal, parseSignal, readSignalFile, type SignalRead } from "../files/signal.ts";

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
