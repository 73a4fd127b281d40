import type { z } from "zod";
import { TroupeError } from "../errors.ts";
import { MAX_BODY_BYTES } from "../protocol/api-base.ts";
import { describeIssue } from "../protocol/issue.ts";

/** A request body that stops arriving for this long is answered 408 and its connection closed. */
const BODY_IDLE_MS = 10_000;

/**
 * A body of a declared length up to this is read in one native call under one deadline (it
 * mostly came with the headers): the stream reader below cost ~90 µs of CPU per request, five
 * times what Bun's own serving of it costs. Such a body taking BODY_IDLE_MS in all has stalled.
 */
const WHOLE_READ_BYTES = 64 * 1024;

/** `read`, or a 408 once BODY_IDLE_MS pass first. */
async function withinBodyDeadline<T>(read: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TroupeError("timeout", `request body stalled for ${BODY_IDLE_MS / 1000} s`)), BODY_IDLE_MS);
  });
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads a request body whole, answering 408 when it stalls for BODY_IDLE_MS. The server's own
 * idle timeout stays off (it would cut event streams and long polls, and Bun ignores a
 * per-request override on streams), so slow bodies are timed out here instead.
 */
export async function bufferBody(req: Request): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (Number(declared ?? "0") > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
  if (declared !== null && Number(declared) <= WHOLE_READ_BYTES) {
    const whole = req.bytes();
    // a stalled read rejects once its connection is closed: that is expected, not an error
    whole.catch(() => {});
    return withinBodyDeadline(whole);
  }
  const reader = req.body!.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    try {
      const { done, value } = await withinBodyDeadline(reader.read());
      if (done) break;
      total += value.byteLength;
      if (total > MAX_BODY_BYTES) throw new TroupeError("payload_too_large", `request body over ${MAX_BODY_BYTES} bytes`);
      chunks.push(value);
    } catch (err) {
      void reader.cancel().catch(() => {});
      throw err;
    }
  }
  return Buffer.concat(chunks);
}

/** A request body as JSON, validated; anything else is a 400 that says why. An empty body is `{}`. */
export function parseBody<S extends z.ZodType>(bytes: Uint8Array, schema: S): z.output<S> {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  let value: unknown;
  try {
    value = text === "" ? {} : JSON.parse(text);
  } catch {
    throw new TroupeError("bad_request", "request body is not valid JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new TroupeError("bad_request", describeIssue(parsed.error, "request"));
  return parsed.data;
}
