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
  })
  .strict();
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
