import type { ReplyCheck } from "../protocol/api/replies.ts";
import { ErrorReply } from "../protocol/api/reply-checks.ts";
import { TroupeError, isErrorCode } from "../errors.ts";
import { BUILD_VERSION, VERSION_HEADER } from "../self.ts";
import { NotDelivered, type Exchange, type Transport } from "./transport.ts";

/** Every request names this client's build, so that daemon and client find out which one is stale. */
export function baseHeaders(token: string | undefined, accept: string): Record<string, string> {
  const headers: Record<string, string> = { accept, [VERSION_HEADER]: BUILD_VERSION };
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
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

/**
 * Sends one exchange, bringing a daemon up when none answered (or one of an older build stepped
 * aside) and sending it again, when the transport can start one. Rejects as the transport does.
 */
export async function deliver(transport: Transport, path: string, ex: Exchange): Promise<Response> {
  let res: Response;
  try {
    res = await transport.send(path, ex);
  } catch (err) {
    if (!transport.start || !(err instanceof NotDelivered) || ex.signal?.aborted) throw err;
    await transport.start("absent");
    res = await transport.send(path, ex);
  }
  if (res.status === 409 && transport.start && (await peekCode(res)) === "daemon_outdated") {
    // the old daemon stops itself on seeing this build; its agents are adopted by the next one
    await transport.start("outdated");
    res = await transport.send(path, ex);
  }
  return res;
}

/**
 * One JSON request, validated on the way back (a zod schema, or a check as strict). A request
 * that reached no daemon, or found one of an older build stepping aside, is sent again once the
 * transport has started one (when it can).
 */
export async function request<T>(
  transport: Transport,
  token: string | undefined,
  method: string,
  path: string,
  check: ReplyCheck<T>,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const headers = baseHeaders(token, "application/json");
  if (body !== undefined) headers["content-type"] = "application/json";
  const ex = { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal };
  let res: Response;
  try {
    res = await deliver(transport, path, ex);
  } catch (err) {
    if (signal?.aborted || err instanceof TroupeError) throw err;
    const why = err instanceof NotDelivered ? `no daemon answers on ${transport.address}` : `the daemon connection broke: ${(err as Error).message}`;
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
  const parsed = check.safeParse(json);
  if (!parsed.success) throw new TroupeError("internal", `daemon reply did not match ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
