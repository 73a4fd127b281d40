import { TroupeError } from "../errors.ts";
import { MCP_PERMISSION_WAIT_SECONDS, MCP_SERVER_ENV } from "../protocol/mcp.ts";
import { PERMISSION_MODES } from "../protocol/permission-modes.ts";
import { selfCommand } from "../self.ts";
import { ownCommandRules } from "../permissions/rules.ts";
import { connect } from "./context.ts";
import { defineCommand } from "./command.ts";

/** Set by the session's launch (src/agents/processes/launch-detached.ts): the session's input folder. */
const INPUT_VAR = "TROUPE_SESSION_INPUT";
/** How long the agent may take to start its ACP session (a CLI's first start builds caches); TROUPE_ACP_START_MS sets it. */
const START_MS = Number(process.env.TROUPE_ACP_START_MS) || 120_000;

export const command = defineCommand(
  {
    synopsis: "troupe acp-run --permissions MODE [--mode ID] [--load SESSION [--load-after MS]] [--troupe PATH] [--allow RULE]... [--deny RULE]... [--mcp] -- AGENT [ARGS...]",
    intro: `  one agent session over the Agent Client Protocol, started by the daemon in place of the agent
  CLI (a provider driven over ACP): it runs the agent, writes the frames to its stdout (the
  session's output), takes the session's input folder as its next prompts, and asks the daemon
  about tool calls. Not for people: troupe spawn starts it.`,
    flags: {
      permissions: { type: "string", help: null },
      mode: { type: "string", help: null },
      load: { type: "string", help: null },
      "load-after": { type: "string", help: null },
      mcp: { type: "boolean", help: null },
      troupe: { type: "string", help: null },
      allow: { type: "string", multiple: true, help: null },
      deny: { type: "string", multiple: true, help: null },
    },
    workspace: false,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const permissions = values.permissions ?? "";
  if (!(PERMISSION_MODES as readonly string[]).includes(permissions)) throw new TroupeError("usage", `--permissions takes ${PERMISSION_MODES.join(", ")}`);
  if (!positionals.length) throw new TroupeError("usage", "acp-run needs the agent's command after --");
  const loadAfter = values["load-after"] === undefined ? undefined : Number(values["load-after"]);
  if (loadAfter !== undefined && (!values.load || !Number.isSafeInteger(loadAfter))) throw new TroupeError("usage", "--load-after takes a time in epoch ms, with --load");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== INPUT_VAR) env[k] = v;
  const identity = Object.fromEntries(MCP_SERVER_ENV.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]]])));
  const self = selfCommand();
  const { client } = await connect(env.TROUPE_WORKSPACE);
  const { runAcpSession } = await import("../acp/runner.ts");
  return runAcpSession({
    argv: positionals,
    cwd: process.cwd(),
    permissions,
    ...(values.mode && { mode: values.mode }),
    ...(values.load && { load: values.load }),
    ...(loadAfter !== undefined && { loadAfter }),
    ...(values.mcp && { mcp: { command: self[0]!, args: [...self.slice(1), "mcp"], env: identity } }),
    inputDir: process.env[INPUT_VAR] || null,
    env,
    secrets: [env.TROUPE_AGENT_TOKEN ?? ""],
    // under a mode that asks no one, what the agent asks is the rules' to decide, its own troupe commands allowed
    rules: { allow: [...ownCommandRules(values.troupe ?? self.join(" ")), ...(values.allow ?? [])], deny: values.deny ?? [] },
    permissionWaitMs: MCP_PERMISSION_WAIT_SECONDS * 1000,
    startMs: START_MS,
    client: () => client,
  });
}
