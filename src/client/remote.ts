import type { Remote } from "../protocol/remote.ts";
import { TroupeClient } from "./client.ts";
import { spawnLink } from "./link/link-process.ts";
import { LinkTransport } from "./link/link-transport.ts";
import { connectTimeoutS, destinationOf, remoteCommand, requestTimeoutMs, sshArgv } from "./link/ssh.ts";

/** `user@host:/srv/api`, as messages show a remote's workspace. */
export function remoteAddress(remote: Remote): string {
  return `${destinationOf(remote)}:${remote.path}`;
}

/** The link to a remote's workspace daemon: `ssh -T host troupe proxy --workspace PATH`, opened on the first request. */
export function remoteTransport(name: string, remote: Remote, env: NodeJS.ProcessEnv = process.env): LinkTransport {
  const timeoutS = connectTimeoutS(env);
  const argv = sshArgv(remote, remoteCommand(remote.troupe, ["proxy", "--workspace", remote.path]), { connectTimeoutS: timeoutS }, env);
  return new LinkTransport(() => spawnLink(argv, env), {
    name,
    address: remoteAddress(remote),
    timeoutMs: timeoutS * 1000,
    requestTimeoutMs: requestTimeoutMs(timeoutS * 1000, env),
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

/** What `troupe remote ls` says of one remote. */
export interface RemoteState {
  reachable: boolean;
  /** The host's troupe build, its API version and platform, once it answered. */
  version: string | null;
  api: number | null;
  platform: string | null;
  /** Agents in that workspace; null when it could not be asked. */
  agents: number | null;
  /** Why not, in one line. */
  error: string | null;
}

/** Connects, greets and counts the agents there (starting that workspace's daemon, as any command does); never throws. */
export async function probeRemote(name: string, remote: Remote, env: NodeJS.ProcessEnv = process.env): Promise<RemoteState> {
  const transport = remoteTransport(name, remote, env);
  const state: RemoteState = { reachable: false, version: null, api: null, platform: null, agents: null, error: null };
  try {
    const hello = await transport.hello();
    Object.assign(state, { reachable: true, version: hello.version, api: hello.api, platform: hello.platform });
    state.agents = (await new TroupeClient({ transport }).listAgents()).length;
  } catch (err) {
    state.error = err instanceof Error ? err.message : String(err);
  } finally {
    transport.close();
  }
  return state;
}
