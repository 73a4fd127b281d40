import { TroupeError } from "../errors.ts";
import type { PermissionRequest } from "../protocol/permission.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { ago, oneLine, table } from "./format.ts";
import { stdout } from "./streams.ts";

/** The one thing a person wants to see of a call: the command, the file, else the input. */
function shown(r: PermissionRequest): string {
  const pick = (k: string) => (typeof r.input[k] === "string" ? (r.input[k] as string) : undefined);
  return pick("command") ?? pick("file_path") ?? pick("notebook_path") ?? pick("url") ?? JSON.stringify(r.input);
}

function decision(r: PermissionRequest): string {
  if (r.status === "pending") return "";
  const by = r.decidedBy === "rule" ? ` by ${r.rule}` : r.decidedBy === "ended" ? " (agent ended)" : r.rule ? ` always: ${r.rule}` : "";
  return ` → ${r.status}${by}${r.reason && r.decidedBy !== "rule" ? `: ${r.reason}` : ""}`;
}

function permissionRows(requests: PermissionRequest[]): string {
  return table(
    ["ID", "AGENT", "TOOL", "STATUS", "AGE", "INPUT"],
    requests.map((r) => [r.id, r.agentName, r.toolName, r.status, ago(r.createdAt), oneLine(`${shown(r)}${decision(r)}`, 100)]),
  );
}

/** `troupe permissions [--all] [--json]`: the requests waiting for the person (--all: every one, decided too). */
export const permissions = defineCommand(
  {
    synopsis: "troupe permissions [--all] [--json]",
    intro: `  agents under troupe spawn --permissions ask wait for you on each tool call their rules do not decide;
  --all also lists those decided (by you, by a rule, or cancelled when the agent ended)`,
    flags: { all: { type: "boolean", help: null }, ...REMOTE_FLAG },
  },
  async (args) => {
    const { values } = permissions.parse(args, { positionals: false });
  const client = await commandClient(values.workspace, values.remote);
  const requests = await client.permissions({ pending: !values.all });
  if (values.json) await printJson(requests);
  else if (requests.length === 0) await stdout.write(values.all ? "no permission requests\n" : "no permission requests wait for you\n");
  else await stdout.write(permissionRows(requests));
    return 0;
  },
);

function one(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new TroupeError("usage", usage);
  return positionals[0]!;
}

/** `troupe allow ID [--always]`: lets the tool call run (always: this agent's rule for it too). */
export const allow = defineCommand(
  {
    synopsis: "troupe allow ID [--always] [--json]",
    flags: {
      always: {
        type: "boolean",
        help: "also adds the rule shown by 'troupe permissions' (Bash(git status), Edit(src/a.ts), ...)\nto the agent's allow rules, so the same call no longer asks",
      },
      ...REMOTE_FLAG,
    },
  },
  runAllow,
);

async function runAllow(args: string[]): Promise<number> {
  const { values, positionals } = allow.parse(args);
  const id = one(positionals, "troupe allow ID [--always]");
  const client = await commandClient(values.workspace, values.remote);
  const r = await client.decidePermission(id, { behavior: "allow", ...(values.always && { always: true }) });
  if (values.json) await printJson(r);
  else await stdout.write(`${r.id} allowed: ${r.agentName} runs ${r.toolName}${r.rule ? `; from now on ${r.rule} is allowed for ${r.agentName}` : ""}\n`);
  return 0;
}

/** `troupe deny ID --reason TEXT`: refuses the call; the agent reads the reason and goes on. */
export const deny = defineCommand(
  {
    synopsis: "troupe deny ID --reason TEXT [--json]",
    intro: "  the agent receives the reason as the tool's answer and goes on",
    flags: { reason: { type: "string", help: null }, ...REMOTE_FLAG },
  },
  runDeny,
);

async function runDeny(args: string[]): Promise<number> {
  const { values, positionals } = deny.parse(args);
  const id = one(positionals, "troupe deny ID --reason TEXT");
  if (!values.reason?.trim()) throw new TroupeError("usage", "give --reason TEXT: the agent reads it and goes on");
  const client = await commandClient(values.workspace, values.remote);
  const r = await client.decidePermission(id, { behavior: "deny", reason: values.reason });
  if (values.json) await printJson(r);
  else await stdout.write(`${r.id} denied: ${r.agentName} was told why\n`);
  return 0;
}
