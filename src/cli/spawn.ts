import { readFileSync } from "node:fs";
import { TroupeError } from "../errors.ts";
import { clientEnv, connect } from "./context.ts";
import { parse, printJson } from "./command.ts";
import { stdout } from "./streams.ts";
import { PERMISSION_MODE_LIST, isPermissionMode } from "../protocol/permission-modes.ts";


/** A duration flag: minutes, or a number with s, m or h ("90s", "30m", "2h"). */
export function durationMs(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)\s*([smh]?)$/.exec(text.trim());
  const ms = m ? Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000, "": 60_000 }[m[2] as "s" | "m" | "h" | ""] : NaN;
  if (!(ms >= 1)) throw new TroupeError("usage", `${flag} takes minutes, or a duration such as 90s, 30m or 2h`);
  return Math.round(ms);
}

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(
    args,
    {
      provider: { type: "string" },
      profile: { type: "string" },
      prompt: { type: "string" },
      "prompt-file": { type: "string" },
      command: { type: "string" },
      name: { type: "string" },
      model: { type: "string" },
      base: { type: "string" },
      "no-worktree": { type: "boolean" },
      permissions: { type: "string" },
      allow: { type: "string", multiple: true },
      deny: { type: "string", multiple: true },
      budget: { type: "string" },
      timeout: { type: "string" },
      "idle-timeout": { type: "string" },
      account: { type: "string" },
    },
    false,
  );
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
  const { client } = await connect(values.workspace);
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
  });
  if (values.json) printJson(agent);
  else stdout.write(`${agent.name} (${agent.id}) ${agent.status}${agent.worktree ? ` in ${agent.worktree}` : ""}\n`);
  return 0;
}
