import { existsSync } from "node:fs";
import type { GcReport } from "../../protocol/api-gc.ts";
import type { Store, AgentRecord } from "../../store/index.ts";
import type { Logger } from "../../events/log.ts";
import type { Workspace } from "../../workspace.ts";
import { isLive } from "../../protocol/status.ts";
import { dirtyPaths } from "../../git/status.ts";
import { pruneWorktrees, removeWorktree, troupeBranches } from "../../git/worktree.ts";
import { worktreeConfig } from "../../workspace-config.ts";

const DAY_MS = 86_400_000;

export interface GcDeps {
  ws: Workspace;
  store: Store;
  log: Logger;
}

/** When a finished agent's worktree may go, if it is clean by then: its last activity plus keepDays. */
function reapableAt(rec: AgentRecord, keepDays: number): number {
  return (rec.lastActivityAt ?? rec.updatedAt) + keepDays * DAY_MS;
}

/**
 * Why a worktree stays, or null when the rule lets it go: only a finished agent's (not live, not
 * waiting for answers, no open session), not flagged `uncommitted`, clean, idle past keepDays.
 * Cheap reasons first: `git status` runs only for worktrees old enough to go.
 */
async function whyKept(rec: AgentRecord, keepDays: number, now: number): Promise<string | null> {
  if (isLive(rec.status) || rec.pid !== null) return `${rec.status}: a session is open`;
  if (rec.status === "waiting") return "waiting for answers";
  if (rec.uncommitted) return "flagged uncommitted: its changes were not committed";
  const at = reapableAt(rec, keepDays);
  if (at > now) return `idle for ${formatDays(now - (at - keepDays * DAY_MS))} of the ${keepDays} days worktree.keepDays keeps`;
  const dirty = await dirtyPaths(rec.worktree!);
  if (dirty.length) return `uncommitted changes: ${dirty.slice(0, 5).join(", ")}${dirty.length > 5 ? ` and ${dirty.length - 5} more` : ""}`;
  return null;
}

const formatDays = (ms: number) => `${(ms / DAY_MS).toFixed(1)} days`;

/**
 * What `troupe gc` and the keepDays timer do: remove the worktrees the rule allows (never a
 * branch) with the ports they held, prune git's records of worktrees that no longer exist, and list branches troupe made
 * that no agent owns any more. With `dryRun`, nothing changes and the report says what would.
 */
export async function collectGarbage(d: GcDeps, dryRun: boolean, now = Date.now()): Promise<GcReport> {
  const { keepDays } = worktreeConfig(d.ws.stateDir);
  const report: GcReport = { dryRun, removed: [], kept: [], pruned: [], orphanBranches: [] };
  for (const rec of d.store.agents.list()) {
    if (!rec.worktree || !existsSync(rec.worktree)) continue;
    const reason = await whyKept(rec, keepDays, now);
    if (reason) {
      report.kept.push({ agent: rec.name, worktree: rec.worktree, reason });
      continue;
    }
    if (!dryRun) {
      try {
        await removeWorktree(d.ws.root, rec.worktree);
      } catch (err) {
        d.log.warn(`gc: removing ${rec.worktree}`, err);
        report.kept.push({ agent: rec.name, worktree: rec.worktree, reason: "git worktree remove failed (see the daemon log)" });
        continue;
      }
      d.store.ports.release(rec.id);
      d.log.info(`gc: removed ${rec.name}'s worktree ${rec.worktree} (idle past ${keepDays} days; ${rec.branch} stays)`);
    }
    report.removed.push({ agent: rec.name, worktree: rec.worktree, branch: rec.branch });
  }
  report.pruned = await pruneWorktrees(d.ws.root, dryRun);
  const owned = new Set(d.store.agents.list().map((a) => a.branch).filter((b): b is string => b !== null));
  const existing = await troupeBranches(d.ws.root);
  report.orphanBranches = d.store.branches
    .list()
    .map((b) => b.branch)
    .filter((b) => !owned.has(b) && existing.has(b.replace(/^troupe\//, "")));
  return report;
}

/**
 * The earliest time after `after` (the last look) that a kept worktree may become removable, or
 * null when none will by age alone. Deadlines up to `after` were looked at then (a dirty one stays).
 */
export function nextReapAt(d: GcDeps, after: number): number | null {
  const { keepDays } = worktreeConfig(d.ws.stateDir);
  let next: number | null = null;
  for (const rec of d.store.agents.list()) {
    if (!rec.worktree || isLive(rec.status) || rec.status === "waiting" || rec.uncommitted || !existsSync(rec.worktree)) continue;
    const at = reapableAt(rec, keepDays);
    if (at > after && (next === null || at < next)) next = at;
  }
  return next;
}
