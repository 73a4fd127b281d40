import { TroupeError } from "../errors.ts";
import { withReconnect } from "../client/reconnect.ts";
import { connect } from "./context.ts";
import { defineCommand, parseIntFlag } from "./command.ts";
import { stderr, stdout } from "./streams.ts";
import type { TroupeClient } from "../client/client.ts";

/** How long one wait request is held by the daemon before the client asks again. */
const POLL_WINDOW_MS = 30_000;

export const command = defineCommand(
  {
    synopsis: "troupe ask QUESTION (--to AGENT | --task ID | --phase ID | --user) [--timeout MS]",
    intro: "  prints the answer; exit 3 when the timeout passes first (the question is then expired)",
    flags: {
      to: { type: "string", help: null },
      task: { type: "string", help: null },
      phase: { type: "string", help: null },
      user: { type: "boolean", help: null },
      timeout: { type: "string", help: null },
    },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const question = positionals.join(" ");
  if (!question.trim()) throw new TroupeError("usage", "ask needs the QUESTION text");
  const targets = [values.to, values.task, values.phase, values.user || undefined].filter((t) => t !== undefined);
  if (targets.length !== 1) throw new TroupeError("usage", "ask needs exactly one of --to AGENT, --task ID, --phase ID, --user");
  const timeoutMs = parseIntFlag("timeout", values.timeout);
  const { client } = await connect(values.workspace);
  const conv = await client.ask({ question, to: values.to, task: values.task, phase: values.phase, user: values.user, timeoutMs });
  if (conv.toId !== "user") await sayHowItReaches(client, conv.toId);
  // The daemon expires the question at its deadline; keep reconnecting until it says so.
  const deadline = conv.expiresAt === null ? Number.POSITIVE_INFINITY : conv.expiresAt + 10_000;
  for (;;) {
    const c = await withReconnect(deadline, () => client.conversation(conv.id, { wait: POLL_WINDOW_MS }));
    if (c.status === "answered") {
      stdout.write(`${c.answer ?? ""}\n`);
      return 0;
    }
    if (c.status === "expired") {
      const why = timeoutMs === undefined ? `${c.toName} can no longer answer` : `no answer from ${c.toName} within ${timeoutMs} ms`;
      throw new TroupeError("timeout", `${why} (conversation ${c.id} expired)`);
    }
    if (Date.now() > deadline) throw new TroupeError("timeout", `no answer from ${c.toName} within ${timeoutMs} ms`);
  }
}

/** For an addressee whose run is under way: whether the question reaches that run, or waits until it looks (on stderr, so stdout stays the answer). */
async function sayHowItReaches(client: TroupeClient, agentId: string): Promise<void> {
  try {
    const a = await client.agent(agentId);
    if (a.status !== "running") return;
    // the providers' registry only here: every agent's `troupe ask` would load it otherwise
    const { getProvider } = await import("../../providers/index.ts");
    const how = getProvider(a.provider)?.liveInput
      ? "the question is written into its session"
      : "its CLI takes no input mid-run, so the question is queued until it looks (troupe listen)";
    stderr.write(`troupe: ${a.name} is running: ${how}; waiting for the answer\n`);
  } catch {
    // only a note: the answer is what matters
  }
}
