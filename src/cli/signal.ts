import { TroupeError } from "../errors.ts";
import type { Signal } from "../protocol/signal.ts";
import { FAILURE_CLASSES, type FailureClass } from "../protocol/failure.ts";
import { RECONNECT_MS, withReconnect } from "../client/reconnect.ts";
import { connect } from "./context.ts";
import { defineCommand } from "./command.ts";
import { stdout } from "./streams.ts";
import { program } from "../runtime/program.ts";

function build(kind: string | undefined, v: { result?: string; question?: string[]; error?: string; class?: string }): Signal {
  if (v.class !== undefined && kind !== "error") throw new TroupeError("usage", "--class goes with signal error");
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
      if (v.class === undefined) return { status: "error", error: v.error };
      if (!(FAILURE_CLASSES as readonly string[]).includes(v.class)) throw new TroupeError("usage", `--class takes ${FAILURE_CLASSES.join(", ")}`);
      return { status: "error", error: v.error, class: v.class as FailureClass };
    default:
      throw new TroupeError("usage", kind ? `unknown signal '${kind}' (done, questions or error)` : "signal needs done, questions or error");
  }
}

export const command = defineCommand(
  {
    synopsis: `troupe signal done [--result TEXT]
troupe signal questions --question TEXT [--question TEXT ...]
troupe signal error --error TEXT [--class CLASS]   (CLASS: how troupe takes it, e.g. network is retried)`,
    flags: {
      result: { type: "string", help: null },
      question: { type: "string", multiple: true, help: null },
      error: { type: "string", help: null },
      class: { type: "string", help: null },
    },
    workspace: false,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if (positionals.length > 1) throw new TroupeError("usage", `unexpected '${positionals[1]}' (quote the text and pass it with a flag)`);
  const signal = build(positionals[0], values);
  if (!program.env("TROUPE_AGENT_TOKEN")) throw new TroupeError("usage", "not running as a troupe agent: TROUPE_AGENT_TOKEN is not set");
  // The daemon records the signal as this agent's, by its token, and writes its signal file: a
  // file written any other way is not this agent's word. No daemon: this starts one, as ask does.
  // The same signal again changes nothing: a daemon that died mid-request is started and asked again.
  const { client } = await connect(values.workspace);
  await withReconnect(Date.now() + RECONNECT_MS, () => client.signal(signal));
  stdout.write(`signalled ${signal.status}\n`);
  return 0;
}
