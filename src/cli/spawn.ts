import { readFileSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import { clientEnv } from "./context.ts";
import { REMOTE_FLAG, commandClient } from "./sources.ts";
import { defineCommand, printJson } from "./command.ts";
import { PERMISSION_CHOICES, PROVIDER_LIST } from "./words.ts";
import { stdout } from "./streams.ts";
import { PERMISSION_MODE_LIST, isPermissionMode } from "../protocol/permission-modes.ts";
import { NetworkPolicySchema, SandboxModeSchema } from "../protocol/sandbox.ts";


/** A duration flag: minutes, or a number with s, m or h ("90s", "30m", "2h"). */
function durationMs(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([smh]?)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, "": 60_000 }[m[2] as "s" | "m" | "h" | ""] : NaN;
  if (!(ms >= 1)) throw new TroupeError("usage", `${flag} takes minutes, or a duration such as 90s, 30m or 2h`);
  return Math.round(ms);
}

export const command = defineCommand(
  {
    synopsis: "troupe spawn ((--provider | --profile) NAME --prompt TEXT | --command 'SHELL COMMAND') [options]",
    flags: {
      ...REMOTE_FLAG,
      provider: { type: "string", arg: "NAME", help: `${PROVIDER_LIST} (default: the profile's; generic with --command)` },
      profile: { type: "string", arg: "NAME", help: "a profile (troupe profile ls): its provider, model, permissions, tools\nand instructions; this command's own flags win over it" },
      prompt: { type: "string", arg: "TEXT", help: "the task; --prompt-file F reads it from a file" },
      "prompt-file": { type: "string", help: null },
      command: { type: "string", arg: "CMD", help: "a shell command to run as the agent (generic provider)" },
      name: { type: "string", arg: "NAME", help: "a name (default: an unused adjective-animal)" },
      model: { type: "string", arg: "M", help: "the provider's model" },
      base: { type: "string", arg: "REF", help: "create the worktree from REF (default: HEAD)" },
      "no-worktree": { type: "boolean", help: "run in the workspace itself" },
      permissions: {
        type: "string",
        arg: "MODE",
        help: `${PERMISSION_CHOICES} (Claude Code only: each tool call\nthe rules do not decide waits for you: troupe permissions, allow, deny)`,
      },
      allow: { type: "string", multiple: true, arg: "RULE", help: "allow without asking (repeatable): Bash(npm test*), Edit(src/**), Read" },
      deny: { type: "string", multiple: true, arg: "RULE", help: "refuse (repeatable); a deny wins over any allow" },
      budget: { type: "string", arg: "USD", help: "stop the agent (failed, class budget) once it has spent this" },
      timeout: { type: "string", arg: "T", help: "wall-clock limit per run (minutes, or 90s, 30m, 2h)" },
      "idle-timeout": { type: "string", arg: "T", help: "limit without output per run (default: lifecycle.idleTimeoutMinutes, 30)" },
      account: { type: "string", arg: "NAME", help: "run on this account of yours (default: the least recently used available one, if any)" },
      expect: { type: "string", arg: "T", help: "how long the run should take (30m, 2h): an account forecast to run out\nsooner is passed over while another lasts (troupe account ls)" },
      sandbox: { type: "string", arg: "MODE", help: "auto (where the machine can), strict (refuse without one), off\n(default: the configs' sandbox.mode, else auto)" },
      network: { type: "string", arg: "POLICY", help: "all; allow (sandbox.allowHosts and the CLI's model API, through troupe's proxy); or none (only troupe's socket)" },
    },
    json: "print the agent as JSON",
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args, { positionals: false });
  void positionals;
  let prompt = values.prompt;
  if (values["prompt-file"]) {
    if (prompt) throw new TroupeError("usage", "give --prompt or --prompt-file, not both");
    try {
      prompt = readFileSync(values["prompt-file"], "utf8");
    } catch (err) {
      throw new TroupeError("usage", `cannot read ${values["prompt-file"]}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  // a profile may name the provider; the daemon says so when it does not
  const provider = values.provider ?? (values.command && !values.profile ? "generic" : undefined);
  if (!provider && !values.profile) throw new TroupeError("usage", "give --provider NAME or --profile NAME with --prompt, or --command");
  const permissions = values.permissions;
  if (permissions !== undefined && !isPermissionMode(permissions)) throw new TroupeError("usage", `--permissions takes ${PERMISSION_MODE_LIST}`);
  const budgetUsd = values.budget === undefined ? undefined : Number(values.budget);
  if (budgetUsd !== undefined && !(budgetUsd > 0)) throw new TroupeError("usage", "--budget takes an amount in USD, such as 2.50");
  const timeoutMs = durationMs("--timeout", values.timeout);
  const idleTimeoutMs = durationMs("--idle-timeout", values["idle-timeout"]);
  const expectedMs = durationMs("--expect", values.expect);
  const sandbox = choice("--sandbox", values.sandbox, SandboxModeSchema.options);
  const network = choice("--network", values.network, NetworkPolicySchema.options);
  const client = await commandClient(values.workspace, values.remote);
  const agent = await client.spawn({
    provider,
    profile: values.profile,
    command: values.command,
    prompt,
    name: values.name,
    model: values.model,
    baseRef: values.base,
    worktree: !values["no-worktree"],
    env: clientEnv(),
    permissions,
    ...(values.allow?.length && { allow: values.allow }),
    ...(values.deny?.length && { deny: values.deny }),
    budgetUsd,
    timeoutMs,
    idleTimeoutMs,
    account: values.account,
    expectedMs,
    sandbox,
    network,
  });
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} (${agent.id}) ${agent.status}${agent.worktree ? ` in ${agent.worktree}` : ""}\n`);
  return 0;
}

function choice<T extends string>(flag: string, value: string | undefined, options: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(options as readonly string[]).includes(value)) throw new TroupeError("usage", `${flag} takes ${options.join(", ")}`);
  return value as T;
}
