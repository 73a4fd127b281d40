import { TroupeError } from "../errors.ts";
import type { Signal } from "../protocol/signal.ts";
import { writeSignalFile } from "../agents/signal-file.ts";
import { resolveWorkspace } from "../workspace.ts";
import { clientFor } from "../client/connect.ts";
import { parse } from "./command.ts";
import { stdout } from "./streams.ts";

function build(kind: string | undefined, v: { result?: string; question?: string[]; error?: string }): Signal {
  switch (kind) {
    case "done":
      return v.result === undefined ? { status: "done" } : { status: "done", result: v.result };
    case "questions": {
      const qs = (v.question ?? []).filter((q) => q.trim());
      if (!qs.length) throw new TroupeError("usage", "signal questions needs at least one --question TEXT");
      return { status: "questions", questions: qs.map((question, i) => ({ id: `q${i + 1}`, question })) };
    }
    case "error":
      if (!v.error?.trim()) throw new TroupeError("usage", "signal error needs --error TEXT");
      return { status: "error", error: v.error };
    default:
      throw new TroupeError("usage", kind ? `unknown signal '${kind}' (done, questions or error)` : "signal needs done, questions or error");
  }
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    result: { type: "string" },
    question: { type: "string", multiple: true },
    error: { type: "string" },
  });
  if (positionals.length > 1) throw new TroupeError("usage", `unexpected '${positionals[1]}' (quote the text and pass it with a flag)`);
  const signal = build(positionals[0], values);
  const file = process.env.TROUPE_SIGNAL_FILE;
  if (!file) throw new TroupeError("usage", "not running as a troupe agent: TROUPE_SIGNAL_FILE is not set");
  writeSignalFile(file, signal);
  // The file is what counts; telling the daemon only checks it early. No daemon is fine.
  try {
    await clientFor(resolveWorkspace({ workspace: values.workspace })).signal(file);
  } catch (err) {
    if (!(err instanceof TroupeError && err.code === "daemon_unavailable")) throw err;
  }
  stdout.write(`signalled ${signal.status}\n`);
  return 0;
}
