import type { z } from "zod";
import { ErrorBodySchema } from "../protocol/api.ts";
import { TroupeError, isErrorCode } from "../errors.ts";

export interface HttpOptions {
  socket: string;
  token?: string;
}

type Method = "GET" | "POST";

function isConnectError(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code ?? "";
  return ["ECONNREFUSED", "ENOENT", "ConnectionRefused", "FailedToOpenSocket", "ECONNRESET", "ConnectionClosed"].includes(code)
    || /connect|socket|closed unexpectedly/i.test(String((err as Error)?.message ?? ""));
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
  let res: Response;
  try {
    res = await fetch(`http://troupe${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      unix: opts.socket,
      signal,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    if (isConnectError(err)) throw new TroupeError("daemon_unavailable", `no daemon answers on ${opts.socket}`, { cause: err });
    throw new TroupeError("daemon_unavailable", `daemon request failed: ${(err as Error).message}`, { cause: err });
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
