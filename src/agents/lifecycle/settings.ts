import { readWorkspaceConfig } from "../../workspace-config.ts";
import { DEFAULT_RETRY, type RetrySettings } from "./retry-policy.ts";

export interface LifecycleSettings {
  retry: RetrySettings;
  /** Per-run limits in ms (null: none), unless the agent was spawned with its own. */
  timeoutMs: number | null;
  idleTimeoutMs: number | null;
}

const DEFAULT_IDLE_TIMEOUT_MINUTES = 30;

const minutes = (m: number | undefined, fallback: number | null): number | null => (m === undefined ? fallback : m > 0 ? Math.round(m * 60_000) : null);

/**
 * The workspace config's `lifecycle`, read at each decision (no restart needed). A config that
 * does not parse gives the defaults here: a run's end must be recorded whatever the file says
 * (spawns still refuse it, with the reason).
 */
export function lifecycleSettings(stateDir: string): LifecycleSettings {
  let c;
  try {
    c = readWorkspaceConfig(stateDir).lifecycle;
  } catch {
    c = undefined;
  }
  return {
    retry: {
      baseDelayMs: c?.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxAttempts: c?.retry?.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      jitter: c?.retry?.jitter ?? DEFAULT_RETRY.jitter,
      resumeInterrupted: c?.resumeInterrupted ?? DEFAULT_RETRY.resumeInterrupted,
    },
    timeoutMs: minutes(c?.timeoutMinutes, null),
    idleTimeoutMs: minutes(c?.idleTimeoutMinutes, DEFAULT_IDLE_TIMEOUT_MINUTES * 60_000),
  };
}
