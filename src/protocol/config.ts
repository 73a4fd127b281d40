import { z } from "zod";

/**
 * How an agent may act without asking. Headless agents cannot answer a permission prompt,
 * so the default is "skip"; "edits" lets them edit files but asks for the rest (and so
 * fails tools that need more), "plan" is read-only.
 */
export const PermissionModeSchema = z.enum(["skip", "edits", "plan"]);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

/** Per-provider defaults a spawn falls back to when it does not say. */
export const ProviderConfigSchema = z
  .object({
    permissions: PermissionModeSchema.optional(),
    allowedTools: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).optional(),
  })
  .strict();

const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3, tb: 1e12, tib: 1024 ** 4 };
const MIN_OUTPUT_CAP = 1024 ** 2;
export const DEFAULT_OUTPUT_CAP = 256 * 1024 ** 2;

/** A size in bytes: a number, or a string with a unit ("256MiB", "1.5 GB"). */
export const ByteSizeSchema = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*([kmgt]i?)?b$/i)
    .transform((s) => {
      const [, num, unit] = /^([\d.]+)\s*(\w+)$/.exec(s)!;
      return Math.floor(Number(num) * UNIT_BYTES[unit!.toLowerCase()]!);
    }),
], { error: 'a number of bytes, or a size such as "256MiB" or "1GB"' });

/** What the daemon keeps of agents' output. */
export const OutputConfigSchema = z
  .object({
    /** Stored output per agent (default 256 MiB); past it the oldest is dropped, with a marker saying how much. */
    maxPerAgent: ByteSizeSchema.pipe(z.number().min(MIN_OUTPUT_CAP, "at least 1 MiB")).optional(),
  })
  .strict();

/** `<workspace>/.troupe/config.json`: local settings, read at every spawn and resume. */
export const WorkspaceConfigSchema = z
  .object({
    providers: z.record(z.string(), ProviderConfigSchema).default({}),
    daemon: z
      .object({
        /** Minutes with no live agent, pending deadline or connected client before the daemon exits; 0 never. */
        idleExitMinutes: z.number().nonnegative().optional(),
      })
      .strict()
      .optional(),
    output: OutputConfigSchema.optional(),
  })
  .strict();
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
