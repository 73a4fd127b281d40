import { z } from "zod";

export const PermissionModeSchema = z.enum(["skip", "edits", "plan"]);

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
  })
  .strict();
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
