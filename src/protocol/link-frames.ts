import { z } from "zod";

/**
 * The JSON payloads of a link's frames (src/client/link/frames.ts). Each side reads the other's
 * frames through these schemas: whatever a far end sends is untrusted input, and a payload that
 * is not one is a broken link, said in one line (never a crash).
 */

/** What the proxy says first: enough to tell whether this client can talk to that daemon. */
export const HelloSchema = z.object({
  /** The API version the host's troupe speaks (src/protocol/api/index.ts API_VERSION). */
  api: z.number().int(),
  /** Its build (`0.1.0+<stamp>`): shown, never compared. */
  version: z.string(),
  /** `linux-x64`, as `process.platform-process.arch`. */
  platform: z.string(),
  /** The workspace root it serves. */
  workspace: z.string(),
  /**
   * What this proxy understands beyond the frames of link version 1, which an older one lacks:
   * `ping` (it answers PING with PONG). A client sends a frame of a feature only to a proxy that
   * lists it (an older proxy closes the link on a frame type it does not know); a feature this
   * client does not know is ignored.
   */
  features: z.array(z.string()).optional(),
  /** Set when it cannot serve that workspace (the folder is missing): it exits after saying so. */
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});
export type Hello = z.infer<typeof HelloSchema>;

/** client → proxy: an exchange begins. */
export const OpenRequestSchema = z.object({
  method: z.string().min(1),
  path: z.string().startsWith("/"),
  headers: z.record(z.string(), z.string()),
  body: z.string().optional(),
});
export type OpenRequest = z.infer<typeof OpenRequestSchema>;

/** proxy → client: the reply's status and headers. */
export const ReplyHeadSchema = z.object({
  status: z.number().int().min(200).max(599),
  headers: z.record(z.string(), z.string()),
});

/** proxy → client: the exchange failed. */
export const FailureSchema = z.object({
  /** An error code (src/errors.ts) when the proxy knows one, e.g. workspace_missing. */
  code: z.string().optional(),
  message: z.string(),
  /** False when the request never reached a daemon: safe to send again. */
  delivered: z.boolean(),
});
export type Failure = z.infer<typeof FailureSchema>;
