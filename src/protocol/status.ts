/**
 * Every agent status and what it means, in one table: the services, the CLI and the
 * dashboard read these flags instead of listing statuses by hand. Plain data (no zod), so
 * short-lived commands pay nothing for it. Conditions that are not statuses (a dirty
 * worktree, say) are flags on the agent beside its status, not rows here.
 *
 * Invariant: at most one process per agent at any time. Only a status that is not `live`
 * may start a process (resume, retry, message, attach), and starting one makes it live.
 */
export const AGENT_STATUSES = ["starting", "running", "waiting", "done", "failed", "stopped", "blocked", "attached"] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export interface StatusTraits {
  /** A process of the agent is (or is about to be) running. */
  live: boolean;
  /** A new session may be started on the same provider session (answers, a message). */
  resumable: boolean;
  /** A person may take the session over interactively. */
  attachable: boolean;
  /** The agent waits for the person (questions); needs-you items sort first. */
  needsPerson: boolean;
  /** The run is over for good unless someone resumes it (logs -f stops following). */
  ended: boolean;
}

export const STATUS: Readonly<Record<AgentStatus, StatusTraits>> = {
  starting: { live: true, resumable: false, attachable: false, needsPerson: false, ended: false },
  running: { live: true, resumable: false, attachable: false, needsPerson: false, ended: false },
  waiting: { live: false, resumable: true, attachable: true, needsPerson: true, ended: true },
  done: { live: false, resumable: true, attachable: true, needsPerson: false, ended: true },
  failed: { live: false, resumable: true, attachable: true, needsPerson: false, ended: true },
  // resumed only by an explicit resume, once nothing of the stopped session lives
  stopped: { live: false, resumable: true, attachable: true, needsPerson: false, ended: true },
  // every account of its provider is spent: nothing runs until the first reset (its `retryAt`),
  // when it resumes by itself on the account that came back. No resume meanwhile (it would need
  // an account too); `troupe stop` calls it off, `troupe account add` of its provider wakes it at once
  blocked: { live: false, resumable: false, attachable: false, needsPerson: false, ended: false },
  // the person runs the provider's interactive CLI on the agent's session (`troupe attach`): that
  // process lives on their terminal, so nothing else may start one (no retry, message, resume,
  // flow or dispatch); when it exits the agent is back in the status it had before
  attached: { live: true, resumable: false, attachable: false, needsPerson: false, ended: false },
};

export const isLive = (s: AgentStatus): boolean => STATUS[s].live;
export const isResumable = (s: AgentStatus): boolean => STATUS[s].resumable;

/** The statuses with a trait. */
function statusesWhere(trait: keyof StatusTraits): AgentStatus[] {
  return AGENT_STATUSES.filter((s) => STATUS[s][trait]);
}

/** The statuses with a trait in words, for messages ("only a waiting, done or failed agent ..."). */
export function statusesPhrase(trait: keyof StatusTraits): string {
  const xs = statusesWhere(trait);
  return xs.length < 2 ? xs.join("") : `${xs.slice(0, -1).join(", ")} or ${xs.at(-1)}`;
}
