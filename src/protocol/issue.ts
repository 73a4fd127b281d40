import type { z } from "zod";

/** A failed parse as one line: where (the field path, or `what` at the top) and why. */
export function describeIssue(error: z.ZodError, what: string): string {
  const issue = error.issues[0];
  return `${issue?.path.length ? issue.path.join(".") : what}: ${issue?.message ?? "invalid"}`;
}
