import { httpStatus, type ErrorCode } from "../errors.ts";

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

export function errorResponse(code: ErrorCode, message: string): Response {
  return json({ error: { code, message } }, httpStatus(code));
}
