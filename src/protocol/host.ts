import { z } from "zod";
import { AccountStatusSchema } from "./account.ts";

/** One of a host's provider accounts, as a pool shows it: never a secret. */
export const HostAccountSchema = z.object({
  name: z.string(),
  provider: z.string(),
  status: AccountStatusSchema,
  /** When it runs out at its runs' pace (epoch ms), or null (src/accounts/forecast.ts). */
  runsOutAt: z.number().int().nullable(),
});
export type HostAccount = z.infer<typeof HostAccountSchema>;

/** What a daemon has to offer as a host of a pool (`GET /v1/host`): asked over the link by the daemon that places work. */
export const HostInventorySchema = z.object({
  /** `linux-x64`, as Node names it. */
  platform: z.string(),
  /** Its agents that run now (live: starting, running, waiting on a permission, ...). */
  running: z.number().int().nonnegative(),
  /** The providers whose CLI its daemon finds on its PATH (the generic one always). */
  providers: z.array(z.string()),
  accounts: z.array(HostAccountSchema),
});
export type HostInventory = z.infer<typeof HostInventorySchema>;

export const HostInventoryResponseSchema = z.object({ host: HostInventorySchema });

/** This machine's name in a pool (a remote's name may not be it: `troupe remote add` refuses it). */
export const LOCAL_HOST = "local";

/** One host of the workspace's pool (`GET /v1/hosts`, `troupe hosts`): this machine, or a remote with slots. */
export const PoolHostSchema = z.object({
  /** `local`, or the remote's name. */
  name: z.string(),
  /** This workspace's folder, or the remote's `[user@]host[:port]:path`. */
  address: z.string(),
  /** Most agents at once that dispatch places there. */
  slots: z.number().int().positive(),
  reachable: z.boolean(),
  /** Why it is not reachable, in one line; null when it is. */
  error: z.string().nullable(),
  /** The rest as it last answered; null (and empty) while it never has. */
  platform: z.string().nullable(),
  running: z.number().int().nonnegative().nullable(),
  providers: z.array(z.string()),
  accounts: z.array(HostAccountSchema),
  /** When it was asked (epoch ms). */
  checkedAt: z.number().int(),
  /** The tasks dispatch placed there that are under way, as `initiative/task`. */
  tasks: z.array(z.string()),
});
export type PoolHost = z.infer<typeof PoolHostSchema>;

export const PoolHostListResponseSchema = z.object({ hosts: z.array(PoolHostSchema) });
