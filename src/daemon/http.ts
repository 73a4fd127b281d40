import type { z } from "zod";
import { MAX_BODY_BYTES } from "../protocol/api-base.ts";
import { TroupeError, httpStatus, type ErrorCode } from "../errors.ts";
import { describeIssue } from "../protocol/issue.ts";

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function errorResponse(code: ErrorCode, message: string): Response {
  return json({ error: { code, message } }, httpStatus(code));
}

async function readText(req: Request): Promise<string> {
  const length = req.headers.get("content-length");
  if (Number(length ?? "0") > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
  // a declared length within the limit is read in one native call; only a chunked body is counted as it comes
  if (length !== null) return req.text();
  if (!req.body) return "";
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const c of req.body) {
    total += c.byteLength;
    if (total > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The request body, parsed and validated; anything else is a 4xx with a message that says why. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const text = await readText(req);
  let value: unknown;
  try {
    value = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new TroupeError("bad_request", "request body is not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new TroupeError("bad_request", describeIssue(parsed.error, "request"));
  }
  return parsed.data;
}

export function intParam(url: URL, name: string): number | undefined {
  const v = url.searchParams.get(name);
  if (v === null) return undefined;
  if (!/^\d+$/.test(v)) throw new TroupeError("bad_request", `query parameter ${name} must be a whole number`);
  return Number(v);
}
