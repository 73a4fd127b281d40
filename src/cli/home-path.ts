import { homedir } from "node:os";
import { join } from "node:path";

/**
 * `~/src/api` as a remote's path arrives through ssh (quoted, so no shell expanded it): the
 * commands ssh runs for a remote (`troupe proxy`, `troupe attach`) read it from the login folder.
 */
export function expandHome(path: string): string {
  return path === "~" ? homedir() : path.startsWith("~/") ? join(homedir(), path.slice(2)) : path;
}
