import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { Remote } from "../protocol/remote.ts";
import type { Attached } from "./attach.ts";
import type { TroupeClient } from "./client.ts";
import { remoteCommand, sshArgv } from "./link/ssh.ts";

/**
 * `ssh -t host troupe attach AGENT --workspace PATH`: a remote agent's CLI runs on its own host,
 * so taking it over is that command on this terminal (the person's ssh, its prompts and keys).
 */
export function remoteAttachArgv(remote: Remote, agent: string, extra: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): string[] {
  return sshArgv(remote, remoteCommand(remote.troupe, ["attach", agent, "--workspace", remote.path, ...extra]), { tty: true }, env);
}

/** ssh's status when it could not connect (its own message is on the terminal). */
export const SSH_FAILED = 255;

/**
 * The dashboard's `t` on a remote agent: the remote `troupe attach` on this terminal until it
 * exits (ctrl+c is the far CLI's meanwhile), then the agent as its daemon has it now.
 */
export async function runRemoteAttached(name: string, remote: Remote, agentId: string, client: Pick<TroupeClient, "agent">): Promise<Attached> {
  const argv = remoteAttachArgv(remote, agentId);
  const ignore = () => {};
  process.on("SIGINT", ignore);
  let exitCode: number | null;
  let problem: string | null = null;
  try {
    exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(argv[0]!, argv.slice(1), { stdio: "inherit" });
      child.once("error", (err) => {
        problem = `cannot run ssh: ${err.message}`;
        resolve(null);
      });
      child.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
    });
  } finally {
    process.off("SIGINT", ignore);
  }
  if (exitCode === SSH_FAILED) problem = `${name}: ssh could not connect`;
  return { agent: await client.agent(agentId), exitCode, problem };
}
