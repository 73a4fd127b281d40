import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../../errors.ts";
import { removeGuarded } from "../../guarded-fs.ts";
import { isLive } from "../../protocol/status.ts";
import type { AgentRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import { sleep } from "../../runtime/process.ts";
import { removeWorktree } from "../../git/worktree.ts";
import { dirtyPaths, saveAsCommit } from "../../git/status.ts";
import type { AgentDeps } from "../deps.ts";
import { findAgent } from "../find-agent.ts";
import type { RunEnds } from "../lifecycle/run-ends.ts";
import type { AgentEnvStore } from "../files/saved-env.ts";
import { agentPaths } from "../paths.ts";
import { nothingFound } from "../processes/find.ts";
import { KILL_GRACE_MS, type Stopper } from "../processes/stopper.ts";
import type { SessionWatcher } from "../sessions/session-watcher.ts";

/** How much longer than the kill grace `rm` waits for a stopped agent's processes to be gone. */
export const REMOVE_MARGIN_MS = 3_000;

export interface RemovalDeps extends AgentDeps {
  /** What follows the removal (the daemon's declared sequence: src/services/end-of-run.ts). */
  ends: RunEnds;
  stopper: Stopper;
  watcher: SessionWatcher;
  envs: AgentEnvStore;
}

/**
 * Removes a finished agent: its worktree (the branch stays, with its commits), its logs, its
 * records. A worktree with uncommitted changes is refused, naming them; `force` first saves them
 * as a commit on the agent's branch, so nothing is lost either way.
 */
export async function removeAgent(d: RemovalDeps, ref: string, opts: { force?: boolean } = {}): Promise<void> {
  let rec = findAgent(d.store, ref);
  if (isLive(rec.status)) throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; stop it first`);
  // its processes may outlive its status (one that ignores SIGTERM, one that setsid'd): the stop
  // is finished before its records go, or nothing would be left to find them by
  if (d.stopper.terminate(rec.id, rec.session, () => {})) {
    const deadline = Date.now() + KILL_GRACE_MS + REMOVE_MARGIN_MS;
    const left = await d.stopper.waitGone(rec.id, deadline - Date.now());
    if (!nothingFound(left)) {
      throw new TroupeError("invalid_state", `${rec.name}'s processes survive SIGKILL (pids ${left.pids.join(", ")}); not removed`);
    }
    while (d.watcher.isLive(rec.id) && Date.now() < deadline) await sleep(50);
    const now = d.store.agents.get(rec.id);
    if (!now) return; // removed by another call meanwhile
    if (isLive(now.status)) throw new TroupeError("invalid_state", `${now.name} is ${now.status}; stop it first`);
    rec = now;
  }
  if (d.watcher.isLive(rec.id)) throw new TroupeError("invalid_state", `${rec.name} is still shutting down; try again in a few seconds`);
  if (rec.worktree && existsSync(rec.worktree)) await keepChanges(d, rec, !!opts.force);
  if (rec.worktree) {
    try {
      await removeWorktree(d.ws.root, rec.worktree);
    } catch (err) {
      d.log.warn(`removing worktree ${rec.worktree}`, err);
    }
  }
  const paths = agentPaths(d.ws.stateDir, rec.name, rec.worktree);
  // its session's end may still be being read (the process is gone, its last lines not stored)
  d.watcher.forgetOutput(rec.id);
  rmSync(paths.logsDir, { recursive: true, force: true });
  // a --no-worktree agent's own folder (its input and output): never through a link it planted on the way
  try {
    removeGuarded(join(d.ws.stateDir, "agents", rec.name), d.ws.stateDir);
  } catch (err) {
    d.log.warn(`${rec.name}: its folder was left as it is`, err);
  }
  d.envs.remove(rec.id);
  const children = d.store.agents.list().filter((a) => a.parentId === rec.id);
  d.store.agents.delete(rec.id);
  d.store.events.forgetAgent(rec.id);
  d.watcher.releaseSpace();
  // nothing of it stays readable in the store's files: the WAL still held its output, prompt and result
  if (!(await d.store.checkpoints.truncate())) d.log.warn(`${rec.name}: the store's WAL could not be emptied after removing it; the next checkpoint will`);
  d.ends.removed(rec.id);
  // its workers now hang under its own parent: dashboards see them move without a new snapshot
  for (const child of children) {
    const moved = d.store.agents.get(child.id);
    if (moved) d.bus.publish({ type: "agent:updated", agent: toAgent(moved) });
  }
}

/** Refuses to lose uncommitted changes: names them, or with `force` commits them on the branch. */
async function keepChanges(d: RemovalDeps, rec: AgentRecord, force: boolean): Promise<void> {
  const dirty = await dirtyPaths(rec.worktree!);
  if (!dirty.length) return;
  if (!force) {
    throw new TroupeError("dirty_worktree", `${rec.name}'s worktree has uncommitted changes: ${listPaths(dirty)}; commit them, or 'troupe rm --force' saves them as a commit on ${rec.branch}`);
  }
  let env: Record<string, string> = {};
  try {
    env = d.envs.load(rec.id, rec.name);
  } catch {
    // no saved identity: the commit is troupe's
  }
  const commit = await saveAsCommit(rec.worktree!, dirty, `troupe: uncommitted changes of ${rec.name}, saved at rm --force`, env);
  d.log.info(`${rec.name}: saved ${dirty.length} uncommitted path(s) as ${commit} on ${rec.branch}`);
}

/** Up to 10 paths, then how many more. */
function listPaths(paths: string[]): string {
  const shown = paths.slice(0, 10).join(", ");
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}
