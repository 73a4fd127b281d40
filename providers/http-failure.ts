import type { FailureClass } from "./types.ts";

const QUOTA = /quota|billing|credit|usage limit|insufficient_balance/i;

/**
 * The class of an HTTP status a CLI reports from its model API (OpenAI-compatible endpoints
 * mostly): a 429 that speaks of quota or billing is a spent account, any other one the per-minute
 * limit. Undefined for a status that says nothing (a 400 is the request's fault).
 */
export function httpFailure(status: number | undefined, message = ""): FailureClass | undefined {
  if (status === undefined) return undefined;
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "usage_limit";
  if (status === 429) return QUOTA.test(message) ? "usage_limit" : "rate_limit";
  if (status === 408) return "timeout";
  if (status >= 500 && status < 600) return "overloaded";
  return undefined;
}
