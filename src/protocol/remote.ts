import { z } from "zod";

/** A remote's name: what `--remote NAME` and the dashboard's group headers say. */
export const RemoteNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]{0,39}$/i, "a remote's name is letters, digits, '.', '_' or '-' (at most 40), starting with a letter or digit")
  // this machine's name in the pool (src/protocol/host.ts LOCAL_HOST)
  .refine((name) => name !== "local", "'local' names this machine among the hosts: give the remote another name");

/**
 * One remote (`troupe remote add`): a workspace on another machine, reached with OpenSSH. No
 * secret is kept: ssh's own config, agent and keys decide how to log in.
 */
export const RemoteSchema = z.object({
  /** What ssh is given as the destination: `host`, `user@host`, or a Host of your ssh config. */
  host: z.string().min(1).regex(/^[^\s-'"][^\s'"]*$/, "a host is one word, not starting with '-'"),
  port: z.number().int().min(1).max(65535).optional(),
  /** The workspace's folder on that machine, absolute or from the login folder (`~/src/api`). */
  path: z.string().min(1).regex(/^[^'\n\0]+$/, "a path without a single quote or a newline"),
  /** The command that runs troupe there (default: `troupe`, then `~/.local/bin/troupe`). */
  troupe: z.string().min(1).optional(),
  /** Marks it a host of the workspace's pool: most agents at once that dispatch places there (`troupe hosts`). */
  slots: z.number().int().min(1).max(64).optional(),
});
export type Remote = z.infer<typeof RemoteSchema>;

/** `~/.config/troupe/remotes.json`. */
export const RemotesFileSchema = z.object({
  remotes: z.record(RemoteNameSchema, RemoteSchema).default({}),
});
