import { realpathSync } from "node:fs";
import { WORKSPACE_HEADER } from "../self.ts";

/** A path as the file system knows it (links resolved); as given when it does not exist. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function decoded(header: string): string {
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/**
 * Refuses a request meant for another workspace: the client names the one it resolved
 * (`troupe-workspace`), and a TROUPE_SOCKET it inherited (an agent's) may lead it to this daemon
 * with `--workspace` naming another. The same folder by another path (a link) is the same
 * workspace. No header (curl, an older client, a probe asking whose daemon this is): no check.
 * Returns why a request is refused, or null.
 */
export function workspaceCheck(root: string, socket: string): (req: Request) => string | null {
  const mine = real(root);
  // a client sends the same header request after request: resolved once
  let last: { header: string; refusal: string | null } | null = null;
  return (req) => {
    const header = req.headers.get(WORKSPACE_HEADER);
    if (header === null) return null;
    if (last?.header !== header) {
      const theirs = decoded(header);
      const same = theirs === root || real(theirs) === mine;
      last = {
        header,
        refusal: same ? null : `the daemon on ${socket} serves ${root}, not ${theirs}: TROUPE_SOCKET names another workspace's daemon (unset it to reach ${theirs}'s)`,
      };
    }
    return last.refusal;
  };
}
