import { spawnSync } from "node:child_process";
import { TroupeError } from "../errors.ts";
import { SSH_FAILED, remoteAttachArgv } from "../client/remote-attach.ts";
import { findRemote } from "../remotes.ts";

/**
 * `troupe attach --remote NAME AGENT`: the agent's CLI runs on its own host, so this is
 * `ssh -t host troupe attach AGENT --workspace PATH` on this terminal (the person's ssh, its
 * prompts and keys); the exit is that command's (255: ssh could not connect).
 */
export function attachRemote(name: string, agent: string, opts: { stop: boolean; json: boolean }): number {
  const remote = findRemote(name);
  const argv = remoteAttachArgv(remote, agent, [...(opts.stop ? ["--stop"] : []), ...(opts.json ? ["--json"] : [])]);
  const r = spawnSync(argv[0]!, argv.slice(1), { stdio: "inherit" });
  if (r.error) throw new TroupeError("remote_unreachable", `cannot run ssh: ${r.error.message}`);
  if (r.status === SSH_FAILED) throw new TroupeError("remote_unreachable", `${name}: ssh could not connect (its message is above)`);
  return r.status ?? 1;
}
