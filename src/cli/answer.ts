import { TroupeError } from "../errors.ts";
import { RECONNECT_MS, withReconnect } from "../client/reconnect.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";

export const command = defineCommand(
  { synopsis: "troupe answer ANSWER --conversation ID", flags: { conversation: { type: "string", help: null }, ...REMOTE_FLAG } },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  if (!values.conversation) throw new TroupeError("usage", "answer needs --conversation ID");
  const text = positionals.join(" ");
  if (!text.trim()) throw new TroupeError("usage", "answer needs the ANSWER text");
  const client = await commandClient(values.workspace, values.remote);
  // the same answer again is taken as given once: a daemon that died mid-request is asked again
  const conv = await withReconnect(Date.now() + RECONNECT_MS, () => client.answer(values.conversation!, { answer: text }));
  printJson({ conversationId: conv.id, status: conv.status });
  return 0;
}
