import { TroupeError } from "../errors.ts";
import { STATUS } from "../protocol/status.ts";
import { failureLine, failureShows } from "../protocol/failure.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { TroupeClient } from "../client/client.ts";
import { reconnecting } from "../client/reconnect.ts";
import { chunkLines, colorEnabled, formatLine, parserFor, renderChunksWith } from "../output/render.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, parseIntFlag } from "./command.ts";
import { stderr, stdout, verbatim, type Sink } from "./streams.ts";

const PAGE = 5000;

export const command = defineCommand(
  {
    synopsis: "troupe logs AGENT [-f] [--raw | --json] [--session N]",
    flags: {
      follow: { type: "boolean", short: "f", help: "follow live output until the agent ends" },
      raw: {
        type: "boolean",
        help: 'the bytes as the CLI wrote them, unrendered and unsanitized: its stdout to\nstdout, its stderr to stderr; troupe\'s own notes to stderr after "troupe: "',
      },
      session: { type: "string", arg: "N", help: "only session N (each resume is a new session)" },
      ...REMOTE_FLAG,
    },
    json: 'one object per stored chunk: {"id", "agentId", "session", "stream", "data",\n"createdAt"}; stream is stdout, stderr or troupe (a note of troupe\'s)',
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "logs takes one AGENT (id or name)");
  if (values.raw && values.json) throw new TroupeError("usage", "give --raw or --json, not both");
  const session = parseIntFlag("session", values.session);
  const client = await commandClient(values.workspace, values.remote);
  const agent = await client.agent(ref);
  const parse_ = parserFor(agent.provider);
  const color = colorEnabled(stdout);
  let lastSession: number | null = null;
  let lastId = 0;
  // awaited: a slow reader slows the reading down instead of piling output up in memory
  const print = async (chunks: OutputChunk[]) => {
    const mine = chunks.filter((c) => c.id > lastId && (session === undefined || c.session === session));
    if (!mine.length) return;
    const from = lastSession;
    lastId = mine[mine.length - 1]!.id;
    lastSession = mine[mine.length - 1]!.session;
    if (values.json) return stdout.write(verbatim(mine.map((c) => `${JSON.stringify(c)}\n`).join("")));
    if (values.raw) return writeRaw(mine, from);
    // carry the session across batches so a heading shows only where a session starts
    const lines = renderChunksWith(parse_, mine, { raw: false }).filter((l, i) => !(i === 0 && l.kind === "meta" && mine[0]!.session === from));
    // verbatim: formatLine sanitises each line's text before it adds troupe's own colours
    if (lines.length) await stdout.write(verbatim(`${lines.map((l) => formatLine(l, { color })).join("\n")}\n`));
  };

  const history = () => printHistory(client, agent.id, session, print, () => lastId);
  if (values.follow) await follow(client, agent.id, history, print);
  else await history();
  await showFailure(client, agent.id);
  return 0;
}

/**
 * Prints the agent's output as it comes until the agent ends, across daemon restarts (a `kill -9`,
 * an upgrade): a stream that breaks, or ends before the agent does, is opened again (the daemon
 * started again when none answers) and the history read on from the last chunk printed, as the
 * dashboard does; `print` drops what it printed already, so no line is lost or doubled. Gives up
 * when no daemon answers for a while (client/reconnect.ts).
 */
async function follow(client: TroupeClient, id: string, history: () => Promise<void>, print: (c: OutputChunk[]) => Promise<void>): Promise<void> {
  const isEnded = async () => STATUS[(await client.agent(id)).status].ended;
  await reconnecting(async (connected, signal) => {
    // subscribed before the history is read, so nothing written in between is missed (ids dedupe)
    const events = await client.openEvents(null, signal, { output: [id] });
    await history();
    connected();
    if (await isEnded()) return history();
    for await (const { event: ev } of events) {
      if (ev.type === "agent:output" && ev.chunk.agentId === id) await print([ev.chunk]);
      else if (ev.type === "resync") await history();
      else if (ev.type === "agent:updated" && ev.agent.id === id && STATUS[ev.agent.status].ended) return history();
    }
    throw new TroupeError("daemon_unavailable", "the daemon closed the event stream");
  });
}

/**
 * `--raw`: the bytes as the CLI wrote them (escapes, tabs, carriage returns kept), its stdout to
 * stdout and its stderr to stderr, in the order they were stored; troupe's own notes (a new
 * session, output dropped under the cap) go to stderr, each line after `troupe: `. `--json` tells
 * every chunk's stream apart without a convention (one object per chunk).
 */
async function writeRaw(chunks: OutputChunk[], lastSession: number | null): Promise<void> {
  // consecutive chunks bound for one descriptor go in one write
  let to: Sink | null = null;
  let text = "";
  const flush = async () => {
    // --raw is the bytes as written, asked for by name: the one output of an agent's not sanitised
    if (to && text) await to.write(verbatim(text));
    text = "";
  };
  const put = async (sink: Sink, data: string) => {
    if (sink !== to) {
      await flush();
      to = sink;
    }
    text += data;
  };
  for (const c of chunks) {
    if (c.session !== lastSession && (lastSession !== null || c.session > 1)) await put(stderr, `troupe: session ${c.session}\n`);
    lastSession = c.session;
    if (c.stream === "stdout") await put(stdout, c.data);
    else if (c.stream === "stderr") await put(stderr, c.data);
    else await put(stderr, chunkLines(c).map((l) => `troupe: ${l}\n`).join(""));
  }
  await flush();
}

/** The agent's failure after its log, on stderr (the log itself stays the agent's output). */
async function showFailure(client: TroupeClient, id: string): Promise<void> {
  const a = await client.agent(id);
  if (failureShows(a)) stderr.write(`troupe: ${a.name} ${a.status}, attempt ${a.failure.attempt}: ${failureLine(a.failure, a.retryAt, Date.now(), a.status)}\n`);
}

async function printHistory(client: TroupeClient, id: string, session: number | undefined, print: (c: OutputChunk[]) => Promise<void>, from: () => number) {
  let after = from();
  for (;;) {
    const chunks = await client.output(id, { after, session, limit: PAGE });
    if (chunks.length === 0) return;
    await print(chunks);
    after = chunks[chunks.length - 1]!.id;
  }
}
