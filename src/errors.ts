/** Every failure troupe expects carries a code; the CLI and the API map codes, never messages. */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "agent_not_found"
  | "conversation_not_found"
  | "conflict"
  | "already_answered"
  | "no_agent"
  | "invalid_state"
  | "payload_too_large"
  | "timeout"
  | "daemon_unavailable"
  | "store_version"
  | "not_git"
  | "provider_unknown"
  | "spawn_failed"
  | "usage"
  | "method_not_allowed"
  | "daemon_outdated"
  | "client_outdated"
  | "workspace_missing"
  | "workspace_mismatch"
  | "not_a_workspace"
  | "untrusted_config"
  | "sandbox_unavailable"
  | "dirty_worktree"
  | "account_not_found"
  | "accounts_exhausted"
  | "ports_exhausted"
  | "remote_not_found"
  | "remote_unreachable"
  | "remote_incompatible"
  | "no_git_remote"
  | "push_rejected"
  | "push_failed"
  | "no_credentials"
  | "pull_request_failed"
  | "internal";

export class TroupeError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = "TroupeError";
  }
}

const HTTP_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  usage: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  agent_not_found: 404,
  conversation_not_found: 404,
  no_agent: 404,
  provider_unknown: 400,
  method_not_allowed: 405,
  conflict: 409,
  sandbox_unavailable: 409,
  already_answered: 409,
  invalid_state: 409,
  not_git: 409,
  daemon_outdated: 409,
  client_outdated: 409,
  workspace_missing: 410,
  workspace_mismatch: 421,
  not_a_workspace: 400,
  payload_too_large: 413,
  timeout: 408,
  spawn_failed: 500,
  store_version: 500,
  daemon_unavailable: 503,
  untrusted_config: 409,
  dirty_worktree: 409,
  account_not_found: 404,
  accounts_exhausted: 409,
  ports_exhausted: 409,
  remote_not_found: 404,
  remote_unreachable: 503,
  remote_incompatible: 409,
  no_git_remote: 409,
  push_rejected: 409,
  // git or GitHub said no, or could not be reached: the daemon is fine (never 503, which clients wait out)
  push_failed: 502,
  no_credentials: 409,
  pull_request_failed: 502,
  internal: 500,
};

export function httpStatus(code: ErrorCode): number {
  return HTTP_STATUS[code];
}

export function isErrorCode(code: string): code is ErrorCode {
  return code in HTTP_STATUS;
}

export function assertNever(x: never): never {
  throw new TroupeError("internal", `unexpected value: ${JSON.stringify(x)}`);
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
