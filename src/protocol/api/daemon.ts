import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";

/** The daemon itself. */
export const DAEMON_ENDPOINTS = {
  health: endpoint({
    method: "GET",
    path: "/v1/health",
    summary: "Its pid, build version, API version (`api`), workspace and start time.",
    rule: "anyone",
    does: "check the daemon's health",
    anyBuild: true,
    reply: reply.whole(schema("base", "HealthSchema")),
  }),
  stopDaemon: endpoint({
    method: "POST",
    path: "/v1/daemon/stop",
    summary: "Stops the daemon shortly after answering; agents keep running.",
    rule: "person",
    does: "stop the daemon",
    anyBuild: true,
    reply: reply.ok,
  }),
  // removes worktrees: the person's call, never an agent's
  gc: endpoint({
    method: "POST",
    path: "/v1/gc",
    summary: "Removes the worktrees the cleanup rule allows, prunes git's stale records, lists orphan branches: `{report: {dryRun, removed, kept, pruned, orphanBranches}}`.",
    rule: "person",
    does: "clean up worktrees",
    query: { dryRun: query.flag("remove nothing, report what would be", "dry-run") },
    reply: reply.key(schema("gc", "GcResponseSchema"), "report"),
  }),
} as const;
