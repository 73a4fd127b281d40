import type { AttentionItem } from "../kit/terminal/alert.ts";

export type { AttentionItem };
import { hasQuestions, userConversations, userMessages, type EntitiesState } from "./entities-state.ts";
import { initiativeNeedsYou, phaseNeedsYou, taskNeedsYou } from "./work-state.ts";
import { requestSummary } from "./request-lines.ts";

/**
 * The one place that says what rings the dashboard's bell, keyed by occurrence: a key that was not
 * there before rings once. Agents' questions, questions and messages to the person, proposals to
 * review, permission requests, failures.
 */
export function attentionItems(state: EntitiesState): Map<string, AttentionItem> {
  const items = new Map<string, AttentionItem>();
  const nameOf = (id: string | null, fallback: string) => (id && state.agents[id]?.name) || fallback;
  for (const a of Object.values(state.agents)) {
    if (hasQuestions(a)) items.set(`agent:${a.id}:${a.session}`, { name: a.name, reason: "question", text: a.questions![0]!.question });
    else if (a.status === "failed") items.set(`failed:${a.id}:${a.session}`, { name: a.name, reason: "failed", text: a.failure?.evidence ?? a.error ?? "failed" });
  }
  for (const c of userConversations(state)) items.set(`conversation:${c.id}`, { name: c.fromName, reason: "question", text: c.question });
  for (const m of userMessages(state)) items.set(`message:${m.id}`, { name: m.fromName, reason: "message", text: m.text });
  for (const r of Object.values(state.permissions.pending)) items.set(`permission:${r.id}`, { name: r.agentName, reason: "permission", text: requestSummary(r) });
  const w = state.work;
  for (const i of Object.values(w.initiatives)) if (initiativeNeedsYou(i)) items.set(`initiative:${i.id}`, { name: i.name, reason: "approval", text: `a revised goal for ${i.name}` });
  for (const p of Object.values(w.phases)) if (phaseNeedsYou(p)) items.set(`phase:${p.id}`, { name: nameOf(p.proposedBy, "troupe"), reason: "approval", text: `phase ${p.title}` });
  for (const t of Object.values(w.tasks)) if (taskNeedsYou(t)) items.set(`task:${t.id}`, { name: nameOf(t.proposedBy, "troupe"), reason: "approval", text: `task ${t.title}` });
  return items;
}
