import { TroupeError } from "../errors.ts";
import { defineCommand, printJson } from "./command.ts";
import { PROVIDER_LIST } from "./words.ts";
import { clientEnv, connect } from "./context.ts";
import { stdout } from "./streams.ts";

/** `troupe dispatch I [--concurrency N] [--provider P] [--model M] [--command C]`, `troupe dispatch I --stop`. */
export const command = defineCommand(
  {
    synopsis: `troupe dispatch INITIATIVE [--concurrency N] [--provider P] [--model M] [--json]
troupe dispatch INITIATIVE --stop`,
    intro: "  your environment and git identity now are used for every run and merge of this initiative",
    flags: {
      concurrency: { type: "string", arg: "N", help: "execute agents at once (default 4, at most 64)" },
      provider: { type: "string", arg: "P", help: `${PROVIDER_LIST} (default: claude; generic with --command)` },
      command: { type: "string", arg: "CMD", help: "a shell command every run starts with, its prompt in $TROUPE_PROMPT (for scripts and tests)" },
      stop: { type: "boolean", help: "start nothing more and merge nothing more; agents under way go on" },
      model: { type: "string", help: null },
    },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "dispatch takes one INITIATIVE (id or slug)");
  let concurrency: number | undefined;
  if (values.concurrency !== undefined) {
    concurrency = Number(values.concurrency);
    if (!/^\d+$/.test(values.concurrency) || concurrency < 1 || concurrency > 64) throw new TroupeError("usage", `--concurrency takes a whole number from 1 to 64, not '${values.concurrency}'`);
  }
  if (values.stop && (concurrency !== undefined || values.provider || values.model || values.command)) {
    throw new TroupeError("usage", "--stop takes no other option");
  }
  const { client } = await connect(values.workspace);
  if (values.stop) {
    const init = await client.stopDispatch(ref);
    if (values.json) await printJson(init);
    else await stdout.write(`initiative ${init.slug} is no longer dispatched; agents under way go on, and their work waits for the next dispatch to be merged\n`);
    return 0;
  }
  const init = await client.dispatch(ref, { concurrency, provider: values.provider, model: values.model, command: values.command, env: clientEnv() });
  if (values.json) await printJson(init);
  else {
    const d = init.dispatch!;
    await stdout.write(`dispatching ${init.slug}: up to ${d.concurrency} agents at once (${d.provider}${d.model ? ` ${d.model}` : ""}), merging into ${init.branch}; 'troupe phases ${init.slug}' follows it\n`);
  }
  return 0;
}
