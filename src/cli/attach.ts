import { createInterface } from "node:readline/promises";
import { TroupeError } from "../errors.ts";
import { runAttached } from "../client/attach.ts";
import type { TroupeClient } from "../client/client.ts";
import type { Agent } from "../protocol/entities.ts";
import { isLive } from "../protocol/status.ts";
import { connect } from "./context.ts";
import { expandHome } from "./home-path.ts";
import { defineCommand, printJson } from "./command.ts";
import { stderr, stdout } from "./streams.ts";

/** How long a stopped agent gets to be gone before the attach gives up (its stop's SIGKILL comes at 5 s). */
const STOP_WAIT_MS = 15_000;

export const command = defineCommand(
  {
    synopsis: "troupe attach AGENT [--stop] [--json]",
    intro: `  a waiting, done, failed or stopped agent: its provider's interactive CLI resumes the same
  session in the agent's worktree, with the agent's environment (claude --resume, codex resume,
  gemini --resume; the generic provider runs its command again with TROUPE_ATTACHED=1). ctrl+c is
  the CLI's. Meanwhile the agent is 'attached' (no retry, message or resume starts it); when the
  CLI exits it is back in the status it had.`,
    flags: {
      stop: { type: "boolean", help: "a running agent is stopped first (else a terminal is asked)" },
      remote: { type: "string", arg: "NAME", help: "an agent of that remote: runs ssh -t host troupe attach AGENT there" },
    },
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values, positionals } = command.parse(args);
  const [ref, ...extra] = positionals;
  if (!ref || extra.length) throw new TroupeError("usage", "attach takes one AGENT (id or name)");
  if (process.env.TROUPE_AGENT_TOKEN) throw new TroupeError("forbidden", "only the person attaches to an agent, from their own terminal");
  if (values.remote !== undefined) {
    if (values.workspace !== undefined) throw new TroupeError("usage", "give --workspace or --remote, not both (a remote's workspace is its --path)");
    const { attachRemote } = await import("./attach-remote.ts");
    return attachRemote(values.remote, ref, { stop: values.stop === true, json: values.json === true });
  }
  // a remote's `ssh -t host troupe attach` passes its path as given: ~/src/api
  const { client } = await connect(values.workspace === undefined ? undefined : expandHome(values.workspace));
  let agent = await client.agent(ref);
  if (isLive(agent.status) && agent.status !== "attached") {
    if (!values.stop && !(await ask(`${agent.name} is ${agent.status}. Stop it and attach? [y/N] `))) {
      throw new TroupeError("invalid_state", `${agent.name} is ${agent.status}; stop it first (troupe attach --stop)`);
    }
    agent = await stopAndWait(client, agent);
  }
  const done = await runAttached(client, agent.id);
  if (done.problem) stderr.write(`troupe: ${done.problem}\n`);
  if (values.json) await printJson(done.agent);
  else stdout.write(`detached from ${done.agent.name}: ${done.agent.status} (session ${done.agent.session})\n`);
  return done.exitCode === null && done.problem ? 1 : 0;
}

/** Yes only from a person at a terminal who says so. */
async function ask(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

async function stopAndWait(client: TroupeClient, agent: Agent): Promise<Agent> {
  await client.stop(agent.id);
  const deadline = Date.now() + STOP_WAIT_MS;
  let now = await client.waitAgent(agent.id, { wait: STOP_WAIT_MS });
  while (isLive(now.status) && Date.now() < deadline) now = await client.waitAgent(agent.id, { wait: deadline - Date.now() });
  if (isLive(now.status)) throw new TroupeError("timeout", `${agent.name} did not stop within ${STOP_WAIT_MS / 1000} s`);
  return now;
}
