import type { z } from "zod";
import { ErrorBodySchema } from "../protocol/api-base.ts";
import { TroupeError, isErrorCode } from "../errors.ts";

export interface HttpOptions {
  socket: string;
  token?: string;
  /** Called once when no daemon listens, before the request is tried again (starts one). */
  autostart?: () => Promise<void>;
}

type Method = "GET" | "POST" | "DELETE";

/** The request never reached a daemon (no socket, or nobody listening): safe to retry, even a POST. */
function notDelivered(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return ["ECONNREFUSED", "ENOENT", "ConnectionRefused", "FailedToOpenSocket"].includes(code);
}

/** One JSON request over the daemon's Unix socket, validated on the way back. */
export async function request<S extends z.ZodType>(
  opts: HttpOptions,
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const send = () =>
    fetch(`http://troupe${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), unix: opts.socket, signal });
  let res: Response;
  try {
    try {
      res = await send();
    } catch (err) {
      if (!opts.autostart || !notDelivered(err) || signal?.aborted) throw err;
      await opts.autostart();
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
    const parsed = ErrorBodySchema.safeParse(json);
    if (!parsed.success) throw new TroupeError("internal", `daemon error ${res.status} without an error body`);
    const { code, message } = parsed.data.error;
    throw new TroupeError(isErrorCode(code) ? code : "internal", message);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new TroupeError("internal", `daemon reply did not match ${path}: ${parsed.error.issues[0]?.message}`);
  return parsed.data;
}
