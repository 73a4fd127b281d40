import { remoteAddress, remoteTransport } from "../client/remote.ts";
import { errorMessage } from "../errors.ts";
import type { Remote } from "../protocol/remote.ts";
import { readRemotes } from "../remotes.ts";
import type { Check } from "./doctor-checks.ts";

/**
 * One line per host of the pool (the remotes given slots): whether ssh reaches it as the daemon
 * will when it places work there long after this login ended, that is without this login's
 * ssh-agent (SSH_AUTH_SOCK, forwarded or not, goes with the login). Each is asked for the link's
 * greeting only (`troupe proxy` there starts no daemon for it).
 */
export async function checkPoolHosts(env: NodeJS.ProcessEnv = process.env): Promise<Check[]> {
  let remotes: Record<string, Remote>;
  try {
    remotes = readRemotes(env);
  } catch (err) {
    return [{ name: "remotes", ok: false, needed: true, detail: errorMessage(err) }];
  }
  const pool = Object.entries(remotes).filter(([, r]) => r.slots !== undefined);
  return Promise.all(pool.map(([name, remote]) => checkHost(name, remote, env)));
}

async function checkHost(name: string, remote: Remote, env: NodeJS.ProcessEnv): Promise<Check> {
  const check = (ok: boolean, detail: string): Check => ({ name: `host ${name}`, ok, needed: true, detail: `${remoteAddress(remote)}: ${detail}` });
  const { SSH_AUTH_SOCK: agent, ...loggedOut } = env;
  const alone = await greets(name, remote, loggedOut);
  if (alone === null) return check(true, "ssh reaches it without this login's ssh-agent (a key file, or an IdentityAgent that outlives logins), as the daemon will");
  if (!agent) return check(false, alone);
  const withAgent = await greets(name, remote, env);
  if (withAgent !== null) return check(false, withAgent);
  return check(
    false,
    `ssh reaches it only through this login's ssh-agent (SSH_AUTH_SOCK ${agent}), which the daemon no longer has once you log out: give ssh a key file for it, or an IdentityAgent that outlives logins (docs/remotes.md, "Hosts as a pool")`,
  );
}

/** Null when the host's troupe greets over a link opened with `env`; else why not, in one line. */
async function greets(name: string, remote: Remote, env: NodeJS.ProcessEnv): Promise<string | null> {
  const link = remoteTransport(name, remote, env);
  try {
    await link.hello();
    return null;
  } catch (err) {
    return errorMessage(err);
  } finally {
    link.close();
  }
}
