import { ErrorReply, type ReplyCheck } from "./replies.ts";
import { TroupeError, isErrorCode } from "../errors.ts";
import { unixFetch } from "../runtime/serve.ts";
import { BUILD_VERSION, VERSION_HEADER } from "../self.ts";

export interface HttpOptions {
  /** May change once: a client follows the socket the workspace's daemon wrote in its lock file. */
  socket: string;
  token?: string;
  /**
   * Called once when no daemon listens (`absent`), or when the daemon is of an older build and
   * is stepping aside (`outdated`), before the request is sent again: starts a daemon.
   */
  autostart?: (why: "absent" | "outdated") => Promise<void>;
}

/** Every request names this client's build, so that daemon and client find out which one is stale. */
export function baseHeaders(opts: HttpOptions, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept, [VERSION_HEADER]: BUILD_VERSION };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  return headers;
}

type Method = "GET" | "POST" | "PATCH" | "DELETE";

/** The request never reached a daemon (no socket, or nobody listening): safe to retry, even a POST. */
function notDelivered(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return ["ECONNREFUSED", "ENOENT", "ConnectionRefused", "FailedToOpenSocket"].includes(code);
}

/** The error code of a reply, read from a clone so the reply itself stays readable. */
async function peekCode(res: Response): Promise<string | undefined> {
  try {
    const parsed = ErrorReply.safeParse(JSON.parse(await res.clone().text()));
    return parsed.success ? parsed.data.error.code : undefined;
  } catch {
    return undefined;
  }
}

/** One JSON request over the daemon's Unix socket, validated on the way back (a zod schema, or a check as strict). */
export async function request<T>(
  opts: HttpOptions,
  method: Method,
  path: string,
  schema: ReplyCheck<T>,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const headers = baseHeaders(opts, "application/json");
  if (body !== undefined) headers["content-type"] = "application/json";
  const send = () =>
    unixFetch(opts.socket, `http://troupe${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal });
  let res: Response;
  try {
    try {
      res = await send();
    } catch (err) {
      if (!opts.autostart || !notDelivered(err) || signal?.aborted) throw err;
      await opts.autostart("absent");
      res = await send();
    }
    if (res.status === 409 && opts.autostart && (await peekCode(res)) === "daemon_outdated") {
      // the old daemon stops itself on seeing this build; its agents are adopted by the next one
      await opts.autostart("outdated");
      res = await send();
    }
  } catch (err) {
    if (signal?.aborted || err instanceof TroupeError) throw err;
    const why = notDelivered(err) ? `no daemon answers on ${opts.socket}` : `the daemon connection broke: ${(err as Error).message}`;
    throw new TroupeError("daemon_unavailable", why, { cause: err });
  }
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new TroupeError("internal", `daemon sent a non-JSON reply (${res.status})`, { cause: err });
  }
  if (!res.ok) {
    const parsed = ErrorReply.safeParse(json);
    if (!parsed.success) throw new TroupeError("internal", `daemon error ${res.status} without an error body`);
    const { code, message } = parsed.data.error;
    throw new TroupeError(isErrorCode(code) ? code : "internal", message);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new TroupeError("internal", `daemon reply did not match ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
