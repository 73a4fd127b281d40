import { z } from "zod";
import { PermissionPolicySchema } from "./permission.ts";
import { PermissionModeSchema } from "./entities.ts";
import { SandboxConfigSchema } from "./sandbox.ts";

/** Per-provider defaults a spawn falls back to when it does not say. */
const ProviderConfigSchema = z
  .object({
    permissions: PermissionModeSchema.optional(),
    allowedTools: z.array(z.string().min(1)).optional(),
    model: z.string().min(1).optional(),
  });

const UNIT_BYTES: Record<string, number> = { b: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3, tb: 1e12, tib: 1024 ** 4 };
const MIN_OUTPUT_CAP = 1024 ** 2;
export const DEFAULT_OUTPUT_CAP = 256 * 1024 ** 2;

/** A size in bytes: a number, or a string with a unit ("256MiB", "1.5 GB"). */
const ByteSizeSchema = z.union([
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
const OutputConfigSchema = z
  .object({
    /** Stored output per agent (default 256 MiB); past it the oldest is dropped, with a marker saying how much. */
    maxPerAgent: ByteSizeSchema.pipe(z.number().min(MIN_OUTPUT_CAP, "at least 1 MiB")).optional(),
  });

export const DEFAULT_KEEP_DAYS = 7;

/** How agents' worktrees are made ready and when a finished one may go. */
const WorktreeConfigSchema = z.object({
  /** gitignore patterns of ignored files copied into each new worktree (beside `.worktreeinclude`). */
  include: z.array(z.string()).optional(),
  /** A shell command run in each new worktree before the agent starts, once the person trusts this file (`troupe trust`). */
  setup: z.string().min(1).optional(),
  /** Days a finished agent's clean worktree is kept after its last activity (default 7). */
  keepDays: z.number().nonnegative().optional(),
});
export type WorktreeConfig = z.infer<typeof WorktreeConfigSchema>;

/**
 * The ports handed to agents' worktrees, `per` each (default 1), from `from` to `to` inclusive: as
 * `PORT` and `TROUPE_PORT(_n)` in the agent's and `worktree.setup`'s environment (src/agents/start/ports.ts).
 */
const PortsConfigSchema = z
  .object({
    from: z.number().int().min(1).max(65535),
    to: z.number().int().min(1).max(65535),
    per: z.number().int().min(1).max(64).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.to < r.from) ctx.addIssue({ code: "custom", path: ["to"], message: `${r.to} is below ports.from (${r.from})` });
    else if (r.to - r.from + 1 < (r.per ?? 1)) ctx.addIssue({ code: "custom", path: ["per"], message: `${r.per} is more than ports ${r.from}-${r.to} hold` });
  });
export type PortsConfig = z.infer<typeof PortsConfigSchema>;

/** Retries, recoveries and limits of agents' runs (src/agents/lifecycle/). */
const LifecycleConfigSchema = z
  .object({
    retry: z
      .object({
        /** Delay before the second attempt; each later one doubles it (default 1000). */
        baseDelayMs: z.number().int().nonnegative().optional(),
        /** Attempts in all for a transient failure, the first run included (default 3). */
        maxAttempts: z.number().int().min(1).max(20).optional(),
        /** Random share added to or taken from each delay, 0 to 1 (default 0.2). */
        jitter: z.number().min(0).max(1).optional(),
      })
      .optional(),
    /** Wall-clock minutes a run may take before it is stopped (class `timeout`); 0 or unset: no limit. */
    timeoutMinutes: z.number().nonnegative().optional(),
    /** Minutes without output (not counting waits on purpose) before a run is stopped; 0: no limit (default 30). */
    idleTimeoutMinutes: z.number().nonnegative().optional(),
    /** Resume, once, every agent a reboot or a foreign signal killed (default true). */
    resumeInterrupted: z.boolean().optional(),
  });

/**
 * `<workspace>/.troupe/config.json`: local settings, read at every spawn and resume. Keys this
 * troupe does not know are dropped with a warning (`unknownConfigKeys`), never refused: an older
 * troupe keeps working with a newer team's config.
 */
export const WorkspaceConfigSchema = z
  .object({
    providers: z.record(z.string(), ProviderConfigSchema).default({}),
    daemon: z
      .object({
        /** Minutes with no live agent, pending deadline or connected client before the daemon exits; 0 never. */
        idleExitMinutes: z.number().nonnegative().optional(),
      })
      .optional(),
    output: OutputConfigSchema.optional(),
    dispatch: z
      .object({
        /** Minutes a task is expected to take while its phase has none finished (the quota forecast: src/work/expected-duration.ts). */
        taskMinutes: z.number().positive().optional(),
        /** Most agents at once dispatch places on this machine (its slots in the pool: `troupe hosts`); default 4. */
        slots: z.number().int().min(1).max(64).optional(),
        /** Seconds a host of the pool may stay silent before a task running there is placed again elsewhere; default 120. */
        hostGraceSeconds: z.number().positive().optional(),
      })
      .optional(),
    worktree: WorktreeConfigSchema.optional(),
    ports: PortsConfigSchema.optional(),
    lifecycle: LifecycleConfigSchema.optional(),
    /** The workspace's permission policy: under a spawn's, a profile's and an initiative's, over the user's. */
    permissions: PermissionPolicySchema.optional(),
    /** Agents' sandbox (src/sandbox/): it may tighten the user's; it loosens only once the person trusted the file (`troupe trust`). */
    sandbox: SandboxConfigSchema.optional(),
  });
export type WorkspaceConfig = z.infer<typeof WorkspaceConfigSchema>;
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;
