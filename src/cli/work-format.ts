import type { WorkItems } from "../protocol/api-work.ts";
import { LOCAL_HOST } from "../protocol/host.ts";
import type { Decision } from "../protocol/proposals.ts";
import type { Initiative, PhaseTree } from "../protocol/work.ts";
import { ago, oneLine, table } from "./format.ts";

export function initiativeRows(list: Initiative[]): string {
  return table(
    ["ID", "SLUG", "STATUS", "REVIEW", "BASE", "AGE", "NAME"],
    list.map((i) => [i.id, i.slug, i.status, i.review, i.baseRef, ago(i.createdAt), oneLine(i.name)]),
  );
}

export function initiativeText(i: Initiative): string {
  const lines = [
    `${i.name} (${i.slug}, ${i.id})`,
    `status:  ${i.status}`,
    `review:  ${i.review}`,
    `base:    ${i.baseRef} at ${i.baseCommit.slice(0, 12)}`,
    `branch:  ${i.branch}`,
    `spent:   ${spentText(i)}`,
    ...(i.reason ? [`held:    ${i.reason}`] : []),
    "",
    i.goal.trimEnd(),
  ];
  if (i.proposedGoal !== null) lines.push("", `proposed goal (troupe approve ${i.slug} accepts it):`, i.proposedGoal.trimEnd());
  return `${lines.join("\n")}\n`;
}

/** What its agents spent, of its budget when it has one. */
export function spentText(i: Initiative): string {
  return i.budgetUsd === null ? `$${i.spentUsd.toFixed(2)} (no budget)` : `$${i.spentUsd.toFixed(2)} of $${i.budgetUsd.toFixed(2)}`;
}

/** The decisions discuss agents took, under the goal: each title, its slug, then its text indented. */
export function decisionsText(list: Decision[]): string {
  if (list.length === 0) return "";
  const out = ["", "decisions:"];
  for (const d of list) {
    out.push(`  ${oneLine(d.title)} (${d.slug})`);
    if (d.body.trim()) out.push(...d.body.trimEnd().split("\n").map((l) => (l ? `    ${l}` : "")));
  }
  return `${out.join("\n")}\n`;
}

/** The tree as people read it: refs they can copy, status, title, what each waits for. */
export function treeText(t: PhaseTree): string {
  const init = t.initiative;
  const out = [`${init.name} (${init.slug}) · ${init.status} · review ${init.review} · ${init.branch} · spent ${spentText(init)}`];
  if (init.reason) out.push(`  ${oneLine(init.reason, 200)}`);
  if (t.phases.length === 0) out.push(`  no phases yet; a plan agent proposes them`);
  const phaseSlug = new Map(t.phases.map((p) => [p.id, p.slug]));
  for (const p of t.phases) {
    const after = p.dependsOn.length ? `  after ${p.dependsOn.map((d) => phaseSlug.get(d) ?? d).join(", ")}` : "";
    out.push(`  ${mark(p.status)} ${init.slug}/${p.slug}  ${p.status}  ${oneLine(p.title)}${after}`);
    if (p.reason && p.status !== "completed") out.push(`      ${oneLine(p.reason, 200)}`);
    const taskSlug = new Map(p.tasks.map((x) => [x.id, x.slug]));
    for (const k of p.tasks) {
      const bits = [
        k.dependsOn.length ? `after ${k.dependsOn.map((d) => taskSlug.get(d) ?? d).join(", ")}` : "",
        k.agent ? `agent ${k.agent}` : "",
        k.host && k.host !== LOCAL_HOST ? `on ${k.host}` : "",
        k.summary ? oneLine(k.summary, 40) : "",
      ].filter(Boolean);
      out.push(`      ${mark(k.status)} ${init.slug}/${k.slug}  ${k.status}  ${oneLine(k.title)}${bits.length ? `  ${bits.join(" · ")}` : ""}`);
      // why it waits for the person (or what its agent is resolving), and the files to look at
      if (k.reason && k.status !== "completed") out.push(`          ${oneLine(k.reason, 200)}`);
      if (k.waiting && k.status === "pending") out.push(`          ${oneLine(k.waiting, 200)}`);
      if (k.placement && k.status === "in_progress") out.push(`          placed ${oneLine(k.placement, 200)}`);
      for (const l of k.lostRuns) out.push(`          lost on ${l.host} (agent ${l.agent}): ${oneLine(l.outcome ?? "not heard from since", 120)}; never merged`);
      if (k.conflicts?.length && k.status === "blocked") out.push(`          conflicts: ${k.conflicts.join(", ")}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** `!` marks what waits for the person; the rest say where they are. */
function mark(status: string): string {
  switch (status) {
    case "proposed":
      return "!";
    case "completed":
      return "✓";
    case "blocked":
    case "failed":
      return "✗";
    case "rejected":
      return "-";
    case "in_progress":
      return ">";
    default:
      return "·";
  }
}

/** One line per item a command changed: `<verb> phase db (ph_…)`. */
export function changedLines(verb: string, items: WorkItems): string {
  const lines = [
    ...items.initiatives.map((i) => `${verb} the goal of initiative ${i.slug}`),
    ...items.phases.map((p) => `${verb} phase ${p.slug} (${p.id}): ${p.status}`),
    ...items.tasks.map((t) => `${verb} task ${t.slug} (${t.id}): ${t.status}`),
  ];
  return lines.length ? `${lines.join("\n")}\n` : "nothing to do\n";
}
