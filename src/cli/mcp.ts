import { TroupeError } from "../errors.ts";
import { MCP_DEFAULT_WAIT_SECONDS } from "../protocol/mcp.ts";
import { VERSION } from "../self.ts";
import { defineCommand } from "./command.ts";
import { clientEnv, connect } from "./context.ts";
import { installMcp, isInstallTarget, INSTALL_TARGETS } from "./mcp-install.ts";

/**
 * `troupe mcp`: troupe's tools as an MCP server on stdio, for an agent's CLI or a person's. It
 * speaks to the daemon as its caller: the agent whose TROUPE_AGENT_TOKEN it inherits, else the
 * person. The SDK loads only here, so `troupe ask` stays lean.
 */
export const command = defineCommand(
  {
    synopsis: "troupe mcp [--install claude|codex|gemini [--write]]",
    intro: `  without flags: an MCP server on stdin/stdout, acting as $TROUPE_AGENT_TOKEN's agent (else as you);
  every agent troupe starts has it already (tools mcp__troupe__handoff, assign, send_message, ...)`,
    flags: {
      install: { type: "string", arg: "CLI", help: "print the config that adds troupe to your own claude, codex or gemini" },
      write: { type: "boolean", help: "with --install: write it into that CLI's user config (a backup is kept)" },
    },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  if (values.install !== undefined) {
    if (!isInstallTarget(values.install)) throw new TroupeError("usage", `--install takes ${INSTALL_TARGETS.join(", ")}, not '${values.install}'`);
    return installMcp(values.install, !!values.write);
  }
  if (values.write) throw new TroupeError("usage", "--write goes with --install CLI");
  const { client } = await connect(values.workspace);
  const id = process.env.TROUPE_AGENT_ID;
  const self = process.env.TROUPE_AGENT_TOKEN && id ? { id, name: process.env.TROUPE_AGENT_NAME || id } : null;
  const { serveStdio } = await import("../mcp/server.ts");
  await serveStdio({ client, version: VERSION, env: clientEnv(), self, defaultWaitMs: MCP_DEFAULT_WAIT_SECONDS * 1000 });
  return 0;
}
