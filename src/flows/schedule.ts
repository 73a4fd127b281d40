import { Cron } from "croner";
import { TroupeError } from "../errors.ts";

/** Validates a cron expression (croner: 5 or 6 fields, nicknames such as `@daily`), one line when it is not one. */
export function checkCron(expr: string): void {
  try {
    new Cron(expr, { paused: true });
  } catch (err) {
    throw new TroupeError("bad_request", `--cron '${expr}' is not a cron expression: ${(err as Error).message.replace(/^CronPattern: /, "")}`);
  }
}

/** The first time the expression names after `after` (the daemon's local time zone), or null when none is left. */
export function nextRun(expr: string, after: Date): number | null {
  const next = new Cron(expr, { paused: true }).nextRun(after);
  return next ? next.getTime() : null;
}
