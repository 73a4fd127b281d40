import { TroupeError } from "../errors.ts";
import type { Flow } from "../protocol/flow.ts";
import { clientEnv, connect } from "./context.ts";
import { defineCommand, printJson } from "./command.ts";
import { stdout } from "./streams.ts";

const when = (ms: number | null) => (ms === null ? "-" : new Date(ms).toISOString().replace(/\.\d+Z$/, "Z"));

type Sub = "add" | "ls" | "show" | "rm" | "enable" | "disable" | "run";
const form = (sub: Sub, usage: string) => ({ usage, flags: [], run: (args: string[]) => run(sub, args) });

/** `troupe flow add|ls|show|rm|enable|disable|run`: agents started on a schedule. */
export const command = defineCommand({
  name: "flow",
  flags: {
    cron: { type: "string", arg: "EXPR", help: "5 or 6 fields, or @hourly/@daily/...: the daemon's local time" },
    gate: { type: "string", arg: "SCRIPT", help: "a shell command run first, with the flow's environment: its JSON output\ndecides ({\"run\": false} skips) and fills [[key]] in the prompt" },
    profile: { type: "string", help: null },
    provider: { type: "string", help: null },
    prompt: { type: "string", help: null },
  },
  forms: {
    add: { usage: "NAME --cron EXPR (--profile P | --provider P) --prompt TEXT [--gate SCRIPT]", flags: ["cron", "gate", "profile", "provider", "prompt"], run: (args) => run("add", args) },
    ls: form("ls", "[--json]"),
    show: form("show", "NAME [--json]"),
    rm: form("rm", "NAME"),
    enable: form("enable", "NAME"),
    disable: form("disable", "NAME"),
    run: form("run", "NAME   now, whatever its schedule"),
  },
  notes: `  each run gets the environment of the shell that added the flow; a run missed while
  no daemon ran runs once at its next start; a run while the last one is live is skipped`,
});

async function run(sub: Sub, args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm(sub as "add", args);
  const [name, ...extra] = positionals;
  if (extra.length) throw new TroupeError("usage", `flow ${sub} takes one NAME`);
  if (sub !== "ls" && !name) throw new TroupeError("usage", `flow ${sub} takes a NAME`);
  const { client } = await connect(values.workspace);
  const out = async (flow: Flow, line: string) => (values.json ? printJson(flow) : stdout.write(`${line}\n`)).then(() => 0);
  switch (sub) {
    case "add": {
      if (!values.cron || !values.prompt) throw new TroupeError("usage", "flow add NAME --cron EXPR (--profile P | --provider P) --prompt TEXT [--gate SCRIPT]");
      if ((values.profile === undefined) === (values.provider === undefined)) throw new TroupeError("usage", "give --profile or --provider (one of them)");
      const flow = await client.addFlow({ name: name!, cron: values.cron, profile: values.profile, provider: values.provider, prompt: values.prompt, gate: values.gate, env: clientEnv() });
      return out(flow, `flow ${flow.name} added; next run ${when(flow.nextRunAt)}`);
    }
    case "ls": {
      const flows = await client.flows();
      if (values.json) return printJson(flows).then(() => 0);
      const rows = flows.map((f) => `${f.name.padEnd(20)} ${f.enabled ? "on " : "off"} ${f.cron.padEnd(16)} next ${when(f.nextRunAt)}  ${f.lastOutcome ?? ""}`);
      await stdout.write(rows.length ? `${rows.join("\n")}\n` : "no flows\n");
      return 0;
    }
    case "show": {
      const f = await client.flow(name!);
      const lines = [
        `${f.name} (${f.id}) ${f.enabled ? "enabled" : "disabled"}`,
        `  cron: ${f.cron}`,
        `  ${f.profile ? `profile: ${f.profile}` : `provider: ${f.provider}`}`,
        ...(f.gate ? [`  gate: ${f.gate}`] : []),
        `  next run: ${when(f.nextRunAt)}`,
        `  last run: ${when(f.lastRunAt)}${f.lastOutcome ? ` (${f.lastOutcome})` : ""}`,
        "",
        f.prompt,
      ];
      return out(f, lines.join("\n"));
    }
    case "rm":
      await client.removeFlow(name!);
      if (values.json) await printJson({ ok: true });
      else await stdout.write(`flow ${name} removed\n`);
      return 0;
    case "enable":
    case "disable": {
      const f = await (sub === "enable" ? client.enableFlow(name!) : client.disableFlow(name!));
      return out(f, `flow ${f.name} ${f.enabled ? `enabled; next run ${when(f.nextRunAt)}` : "disabled"}`);
    }
    case "run": {
      const r = await client.runFlow(name!);
      if (values.json) await printJson(r);
      else await stdout.write(`flow ${r.flow.name}: ${r.outcome}\n`);
      return r.outcome.startsWith("failed") ? 1 : 0;
    }
  }
}
