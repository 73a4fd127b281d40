import { TroupeError, errorMessage } from "../errors.ts";
import { stderr } from "./streams.ts";
import { program } from "../runtime/program.ts";

export const EXIT = { ok: 0, error: 1, usage: 2, timeout: 3 } as const;

/** The CLI edge: every error becomes one line on stderr and an exit code, never a stack trace. */
export function reportError(err: unknown, usage?: string): number {
  if (err instanceof TroupeError) {
    stderr.write(`troupe: ${err.message}\n`);
    if (err.code === "usage") {
      if (usage) stderr.write(`usage: ${usage.split("\n")[0]}\n`);
      return EXIT.usage;
    }
    return err.code === "timeout" ? EXIT.timeout : EXIT.error;
  }
  stderr.write(`troupe: ${errorMessage(err)}\n`);
  if (program.env("TROUPE_DEBUG")) stderr.write(`${(err as Error)?.stack ?? ""}\n`);
  return EXIT.error;
}
