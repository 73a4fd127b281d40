import { z } from "zod";

/** Largest request body the daemon reads; a prompt file bigger than this is a mistake. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;

export const ErrorBodySchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const HealthSchema = z.object({
  ok: z.literal(true),
  pid: z.number().int(),
  version: z.string(),
  /** The API version it speaks (src/protocol/api/index.ts); absent from a daemon older than the field. */
  api: z.number().int().optional(),
  workspace: z.string(),
  startedAt: z.number().int(),
});
export type Health = z.infer<typeof HealthSchema>;

export const OkSchema = z.object({ ok: z.literal(true) });
