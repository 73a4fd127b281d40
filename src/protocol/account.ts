import { z } from "zod";
import { UsageWindowSchema } from "./output.ts";

/**
 * A provider account of the user (`troupe account add`): shared by every workspace and daemon of
 * the user (src/accounts/). This is the public view: the secret never crosses the API.
 */
export const ACCOUNT_STATUSES = ["available", "exhausted", "invalid"] as const;
export const AccountStatusSchema = z.enum(ACCOUNT_STATUSES);
export type AccountStatus = z.infer<typeof AccountStatusSchema>;

/** How an account gives the agent its credential. */
export const ACCOUNT_KINDS = ["token", "config-dir", "env"] as const;
export const AccountKindSchema = z.enum(ACCOUNT_KINDS);
export type AccountKind = z.infer<typeof AccountKindSchema>;

export const AccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  kind: AccountKindSchema,
  status: AccountStatusSchema,
  /** Until when its quota is spent (epoch ms); null when it is not. */
  exhaustedUntil: z.number().int().nullable(),
  /**
   * When its quota runs out at the pace its runs use it (epoch ms: src/accounts/forecast.ts), or
   * null when it lasts to each window's reset, or nothing is known.
   */
  runsOutAt: z.number().int().nullable(),
  /** Its usage windows as its provider last reported them (`utilization` 1 = all used). */
  windows: z.array(UsageWindowSchema.extend({ seenAt: z.number().int() })),
  /** When an agent last started on it (epoch ms): the least recently used is taken first. */
  lastUsedAt: z.number().int().nullable(),
  /** Why it is `invalid` (its config folder is gone, say); null otherwise. */
  problem: z.string().nullable(),
});
export type Account = z.infer<typeof AccountSchema>;

/** An account name: what `--account` and `troupe account rm` take besides the id. */
export const AccountNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "an account name is 1 to 64 letters, digits, '.', '_' or '-'");

const EnvNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "not an environment variable name");

/** `POST /v1/accounts`: exactly one of `token`, `configDir`, `env`. */
export const AddAccountRequestSchema = z
  .object({
    provider: z.string().min(1),
    name: AccountNameSchema.optional(),
    token: z.string().min(1).max(16 * 1024).optional(),
    configDir: z.string().min(1).max(4096).optional(),
    env: z.record(EnvNameSchema, z.string().max(16 * 1024)).optional(),
  })
  .refine((r) => [r.token, r.configDir, r.env].filter((x) => x !== undefined).length === 1, {
    message: "give exactly one of --token, --config-dir or --env",
  })
  .refine((r) => r.env === undefined || Object.keys(r.env).length > 0, { message: "--env needs NAME=VALUE" });
export type AddAccountRequest = z.input<typeof AddAccountRequestSchema>;

export const AccountResponseSchema = z.object({ account: AccountSchema });
export const AccountListResponseSchema = z.object({ accounts: z.array(AccountSchema) });
