import { TroupeError } from "../errors.ts";
import { RECONNECT_MS, withReconnect } from "../client/reconnect.ts";
import type { Message } from "../protocol/message.ts";
import { connect } from "./context.ts";
import { defineCommand, parseIntFlag, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

/** How long one wait request is held by the daemon before the client asks again. */
const POLL_WINDOW_MS = 30_000;

const when = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export const command = defineCommand(
  {
    synopsis: "troupe inbox [--wait [--timeout MS]] [--after SEQ] [--json]",
    intro: `  the messages not yet delivered, oldest first, now delivered; --after SEQ: every message after
  that seq, read or not; --wait blocks until one comes (exit 3 when --timeout passes first)`,
    flags: { wait: { type: "boolean", help: null }, after: { type: "string", help: null }, timeout: { type: "string", help: null } },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const after = parseIntFlag("after", values.after);
  const timeoutMs = parseIntFlag("timeout", values.timeout);
  if (timeoutMs !== undefined && !values.wait) throw new TroupeError("usage", "--timeout goes with --wait");
  const { client } = await connect(values.workspace);
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  let msgs: Message[];
  for (;;) {
    const waitMs = values.wait ? Math.max(0, Math.min(deadline - Date.now(), POLL_WINDOW_MS)) : undefined;
    // a daemon restarted meanwhile (kill -9, an upgrade) is started again and asked again, by a
    // wait until its timeout, by a read after a seq (it takes nothing) for a while; a plain read
    // takes what it returns, so a reply lost with its daemon is not asked for twice
    msgs = await withReconnect(values.wait ? deadline : after !== undefined ? Date.now() + RECONNECT_MS : 0, () => client.inbox({ after, wait: waitMs }));
    if (msgs.length || !values.wait) break;
    if (Date.now() >= deadline) throw new TroupeError("timeout", `no message arrived within ${timeoutMs} ms`);
  }
  if (values.json) printJson(msgs);
  else if (!msgs.length) stdout.write("no new messages\n");
  else stdout.write(msgs.map((m) => `${m.id} ${when(m.createdAt)} from ${m.fromName}:\n${m.text.replace(/^/gm, "  ")}\n`).join(""));
  return 0;
}
