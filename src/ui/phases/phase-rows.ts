import type { Agent } from "../../protocol/entities.ts";
import { LOCAL_HOST } from "../../protocol/host.ts";
import type { Initiative, Phase, Task } from "../../protocol/work.ts";
import { initiativeNeedsYou, phaseNeedsYou, taskNeedsYou, type WorkState } from "../mirror/work-state.ts";

/** One line of the phases tree; `key` is the item's id (ids of the three kinds never collide). */
export type PhaseRow =
  | { kind: "initiative"; key: string; initiative: Initiative; needs: boolean; expanded: boolean; children: number }
  | { kind: "phase"; key: string; phase: Phase; initiative: Initiative; after: string[]; needs: boolean; expanded: boolean; children: number }
  | { kind: "task"; key: string; task: Task; phase: Phase; initiative: Initiative; after: string[]; agent: string | null; needs: boolean };

/**
 * What waits for the person first, then by age. The sort is stable and the state's tables keep
 * the daemon's order (a snapshot's, then events' arrival), so items created in the same
 * millisecond keep the order they were stored in, as `troupe phases` shows them.
 */
const byNeedsThenAge = <T extends { createdAt: number }>(needs: (x: T) => boolean) => (a: T, b: T) =>
  Number(needs(b)) - Number(needs(a)) || a.createdAt - b.createdAt;

function groupBy<T>(items: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const x of items) {
    const k = key(x);
    const list = out.get(k);
    if (list) list.push(x);
    else out.set(k, [x]);
  }
  return out;
}

/**
 * The tree as shown: initiatives (not archived), each phase under its initiative with the
 * slugs it comes after, each task under its phase with its agent. Whatever waits for the
 * person (a proposal, a revised goal) sorts first at its level, and so does what holds one.
 */
export function phaseRows(work: WorkState, agents: Readonly<Record<string, Agent>>, collapsed: readonly string[]): PhaseRow[] {
  const phasesOf = groupBy(Object.values(work.phases), (p) => p.initiativeId);
  const tasksOf = groupBy(Object.values(work.tasks), (t) => t.phaseId);

  const phaseNeeds = (p: Phase) => phaseNeedsYou(p) || (tasksOf.get(p.id) ?? []).some(taskNeedsYou);
  const initNeeds = (i: Initiative) => initiativeNeedsYou(i) || (phasesOf.get(i.id) ?? []).some(phaseNeeds);
  const slug = (table: Readonly<Record<string, { slug: string }>>) => (id: string) => table[id]?.slug ?? id;

  const rows: PhaseRow[] = [];
  const initiatives = Object.values(work.initiatives).filter((i) => i.status !== "archived").sort(byNeedsThenAge(initNeeds));
  for (const initiative of initiatives) {
    const phases = (phasesOf.get(initiative.id) ?? []).sort(byNeedsThenAge(phaseNeeds));
    const expanded = !collapsed.includes(initiative.id);
    rows.push({ kind: "initiative", key: initiative.id, initiative, needs: initiativeNeedsYou(initiative), expanded, children: phases.length });
    if (!expanded) continue;
    for (const phase of phases) {
      const tasks = (tasksOf.get(phase.id) ?? []).sort(byNeedsThenAge(taskNeedsYou));
      const open = !collapsed.includes(phase.id);
      rows.push({ kind: "phase", key: phase.id, phase, initiative, after: phase.dependsOn.map(slug(work.phases)), needs: phaseNeedsYou(phase), expanded: open, children: tasks.length });
      if (!open) continue;
      for (const task of tasks) {
        const agent = task.agentId ? (agents[task.agentId]?.name ?? task.agentId) : null;
        rows.push({ kind: "task", key: task.id, task, phase, initiative, after: task.dependsOn.map(slug(work.tasks)), agent, needs: taskNeedsYou(task) });
      }
    }
  }
  return rows;
}

/** The status word of a row's item. */
export function rowStatus(r: PhaseRow): string {
  switch (r.kind) {
    case "initiative":
      return r.initiative.dispatch && r.initiative.status === "active" ? "dispatching" : r.initiative.status;
    case "phase":
      return r.phase.status;
    case "task":
      return r.task.status;
  }
}

/** The host of the pool a task runs (or ran) on when that is not this machine. */
export function remoteHostOf(t: Task): string | null {
  return t.host !== null && t.host !== LOCAL_HOST ? t.host : null;
}

/** Why dispatch holds a ready task ("waits for write-api (src/api.ts)"); null once it is not pending. */
export function waitingOf(t: Task): string | null {
  return t.status === "pending" ? t.waiting : null;
}

/** A name for messages: `shop/schema`. */
export function rowName(r: PhaseRow): string {
  switch (r.kind) {
    case "initiative":
      return r.initiative.slug;
    case "phase":
      return `${r.initiative.slug}/${r.phase.slug}`;
    case "task":
      return `${r.initiative.slug}/${r.task.slug}`;
  }
}

/** The selected item's content, as lines before wrapping: what the side pane shows. */
export function rowContent(r: PhaseRow): string[] {
  const para = (label: string, text: string | null | undefined) => (text ? ["", `${label}:`, ...text.split("\n")] : []);
  switch (r.kind) {
    case "initiative": {
      const i = r.initiative;
      const d = i.dispatch;
      return [
        `${i.name} (${i.status})`,
        `branch ${i.branch} from ${i.baseRef} · review: ${i.review}`,
        d ? `dispatching: up to ${d.concurrency} at once on ${d.provider}${d.model ? ` (${d.model})` : ""}` : "not dispatched",
        ...para("Goal", i.goal),
        ...para("Proposed goal (y accepts, x rejects)", i.proposedGoal),
      ];
    }
    case "phase": {
      const p = r.phase;
      return [
        `${p.title} (${p.status})`,
        r.after.length ? `after: ${r.after.join(", ")}` : "no dependencies",
        ...(p.reason ? [`reason: ${p.reason}`] : []),
        ...para("Content", p.content),
      ];
    }
    case "task": {
      const t = r.task;
      return [
        `${t.title} (${t.status})`,
        `phase ${r.phase.slug}${r.agent ? ` · agent ${r.agent}` : ""}${t.branch ? ` · branch ${t.branch}` : ""}`,
        r.after.length ? `after: ${r.after.join(", ")}` : "no dependencies",
        t.files ? (t.files.length ? `files: ${t.files.join(", ")}` : "files: none") : "files: what the phase's other tasks do not list",
        ...(t.host ? [`on ${t.host}${t.placement ? `: ${t.placement}` : ""}`] : t.pin ? [`pinned to ${t.pin}`] : []),
        ...t.lostRuns.map((l) => `lost on ${l.host} (agent ${l.agent}): ${l.outcome ?? "not heard from since"}; never merged`),
        ...[waitingOf(t)].filter((w) => w !== null),
        ...(t.reason ? [`reason: ${t.reason}`] : []),
        ...(t.conflicts?.length ? [`conflicts: ${t.conflicts.join(", ")}`] : []),
        ...para("Description", t.description),
        ...para("Summary", t.summary),
      ];
    }
  }
}
