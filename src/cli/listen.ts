import { TroupeError } from "../errors.ts";
import { withReconnect } from "../client/reconnect.ts";
import { connect } from "./context.ts";
import { defineCommand, parseIntFlag, printJson } from "./command.ts";

const POLL_WINDOW_MS = 30_000;

export const command = defineCommand(
  {
    synopsis: "troupe listen [--timeout MS]",
    intro: '  prints {"conversationId","from","fromName","question",...} as one JSON line; exit 3 on timeout',
    flags: { timeout: { type: "string", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const timeoutMs = parseIntFlag("timeout", values.timeout);
  const { client } = await connect(values.workspace);
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  for (;;) {
    const wait = Math.max(0, Math.min(deadline - Date.now(), POLL_WINDOW_MS));
    const c = await withReconnect(deadline, () => client.listen({ wait }));
    if (c) {
      printJson({
        conversationId: c.id,
        from: c.fromId,
        fromName: c.fromName,
        question: c.question,
        ...(c.taskId ? { taskId: c.taskId } : {}),
        ...(c.phaseId ? { phaseId: c.phaseId } : {}),
      });
      return 0;
    }
    if (Date.now() >= deadline) throw new TroupeError("timeout", `no question arrived within ${timeoutMs} ms`);
  }
}
