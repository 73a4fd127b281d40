import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { unixFetch } from "../runtime/serve.ts";
import { runtimeDir } from "../workspace.ts";
import type { Login } from "./logins.ts";

/**
 * How `troupe web login`, `logins`, `status` and `stop` reach the web process: a Unix socket of
 * the person's (the runtime folder is theirs alone, 0700), never the page's port. Agents cannot
 * reach it: their sandbox hides the runtime folder.
 */
export const controlSocket = (): string => join(runtimeDir(), "web.sock");
/** The web process's lock: one per person on this machine. */
export const webLock = (): string => join(runtimeDir(), "web.lock");
/** The logins it keeps across its restarts (0600). */
export const loginsFile = (): string => join(runtimeDir(), "web-logins.json");
/** Its log, when started detached. */
export const webLog = (): string => join(runtimeDir(), "web.log");

/** What `troupe web status` says. */
export interface WebStatus {
  pid: number;
  /** Where the page is reached: the public URL's origin, else where it listens. */
  origin: string;
  host: string;
  port: number;
  sources: { label: string; title: string }[];
  logins: number;
  startedAt: number;
}

async function call<T>(method: string, path: string): Promise<T> {
  let res: Response;
  try {
    res = await unixFetch(controlSocket(), `http://troupe-web${path}`, { method });
  } catch {
    throw new TroupeError("daemon_unavailable", "troupe web is not running (start it with troupe web start)");
  }
  const body = (await res.json().catch(() => null)) as { error?: { code: string; message: string } } | null;
  if (!res.ok) throw new TroupeError(res.status === 404 ? "not_found" : "internal", body?.error?.message ?? `troupe web answered ${res.status}`);
  return body as T;
}

export const webStatus = (): Promise<WebStatus> => call("GET", "/status");
/** A new one-time login URL. */
export const newLogin = async (): Promise<string> => (await call<{ url: string }>("POST", "/login")).url;
export const listLogins = (): Promise<Login[]> => call("GET", "/logins");
export const revokeLogin = (id: string): Promise<unknown> => call("POST", `/logins/${encodeURIComponent(id)}/revoke`);
export const stopWeb = (): Promise<unknown> => call("POST", "/stop");

/** Whether a web process answers on the control socket. */
export async function webRunning(): Promise<WebStatus | null> {
  try {
    return await webStatus();
  } catch {
    return null;
  }
}
