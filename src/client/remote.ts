import { spawn } from "node:child_process";
import type { Remote } from "../protocol/remote.ts";
import { TroupeClient } from "./client.ts";
import { LinkTransport } from "./link/link-transport.ts";
import { connectTimeoutS, destinationOf, remoteCommand, sshArgv } from "./link/ssh.ts";

/** `user@host:/srv/api`, as messages show a remote's workspace. */
export function remoteAddress(remote: Remote): string {
  return `${destinationOf(remote)}:${remote.path}`;
}

/** The link to a remote's workspace daemon: `ssh -T host troupe proxy --workspace PATH`, opened on the first request. */
export function remoteTransport(name: string, remote: Remote, env: NodeJS.ProcessEnv = process.env): LinkTransport {
  const timeoutS = connectTimeoutS(env);
  const argv = sshArgv(remote, remoteCommand(remote.troupe, ["proxy", "--workspace", remote.path]), { connectTimeoutS: timeoutS }, env);
  return new LinkTransport(() => spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "pipe"], env }), {
    name,
    address: remoteAddress(remote),
    timeoutMs: timeoutS * 1000,
    installHint: `'troupe remote install ${name}' puts this troupe there`,
  });
}

/**
 * A client of a remote's workspace daemon, acting as the person there (as a shell on that host
 * would): an agent's token of this machine means nothing to that daemon, so none is sent.
 */
export function remoteClient(name: string, remote: Remote, env: NodeJS.ProcessEnv = process.env): TroupeClient {
  return new TroupeClient({ transport: remoteTransport(name, remote, env) });
}
