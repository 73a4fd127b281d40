import { z } from "zod";

/** What `troupe gc` did (or, with --dry-run, would do), and everything it kept and why. */
export const GcReportSchema = z.object({
  dryRun: z.boolean(),
  /** Worktrees of finished agents, clean and idle past `worktree.keepDays`: removed (branches stay). */
  removed: z.array(z.object({ agent: z.string(), worktree: z.string(), branch: z.string().nullable() })),
  /** Worktrees kept, each with its reason. */
  kept: z.array(z.object({ agent: z.string(), worktree: z.string(), reason: z.string() })),
  /** Git's records of worktrees whose folder no longer exists (`git worktree prune`). */
  pruned: z.array(z.string()),
  /** Branches troupe created that no agent owns any more: listed, never deleted. */
  orphanBranches: z.array(z.string()),
});
export type GcReport = z.infer<typeof GcReportSchema>;

export const GcResponseSchema = z.object({ report: GcReportSchema });
