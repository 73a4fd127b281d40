import { TroupeError, errorMessage } from "../../errors.ts";
import type { WorkItems } from "../../protocol/api-work.ts";
import { rowName, rowStatus, type PhaseRow } from "./phase-rows.ts";
import type { EditErrorModal } from "./phases-ui.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { say } from "../kit/keys/helpers.ts";

/** The phases view's actions: the same client calls as `troupe approve|reject|edit|retry|detail|dispatch`. */

type Row<K extends PhaseRow["kind"]> = Extract<PhaseRow, { kind: K }>;

export const row = (env: KeyEnv): PhaseRow | null => env.screen.phaseSelected;

function failed(env: KeyEnv, err: unknown): void {
  say(env, errorMessage(err), "error");
}

export function applied(env: KeyEnv, items: Partial<WorkItems>, text: string): void {
  env.mirror.upsertWork(items);
  say(env, text);
}

/** Why `y`/`x` cannot act on the selection: only a proposal (or a revised goal) is reviewed. */
export function notReviewable(env: KeyEnv): string | null {
  const r = row(env);
  if (!r) return "nothing selected";
  if (r.kind === "initiative") return r.initiative.proposedGoal !== null ? null : `${rowName(r)} has no proposed goal to review`;
  return r.needs ? null : `${rowName(r)} is ${rowStatus(r)}, not proposed`;
}

export function approve(env: KeyEnv): void {
  const r = row(env);
  if (!r) return;
  env.deps.client.approve({ ids: [r.key] }).then((items) => applied(env, items, `approved ${rowName(r)}`), (err: unknown) => failed(env, err));
}

export function notEditable(env: KeyEnv): string | null {
  const r = row(env);
  if (!r) return "nothing selected";
  if (r.kind === "initiative") return "select a proposed phase or task to edit";
  return r.needs ? null : `${rowName(r)} is ${rowStatus(r)}: only a proposal can be edited`;
}

// The editor's format (YAML) loads on the first edit: it is no part of the dashboard's first frame.
const editableFormat = () => import("../../protocol/editable.ts");

/** The item as the editor shows it: dependencies by slug, as proposals name them. */
function editable(r: Row<"phase"> | Row<"task">, { renderEditable }: Awaited<ReturnType<typeof editableFormat>>): string {
  if (r.kind === "phase") return renderEditable({ title: r.phase.title, dependsOn: r.after, body: r.phase.content });
  return renderEditable({ title: r.task.title, dependsOn: r.after, files: r.task.files, body: r.task.description });
}

export function editSelected(env: KeyEnv): void {
  const r = row(env);
  if (!r || r.kind === "initiative") return;
  void editableFormat().then((format) => {
    const original = editable(r, format);
    return runEditor(env, r.key, rowName(r), original, original);
  });
}

/** Opens the editor on `text`; a refused save offers to edit again with the error on top (as `troupe edit`). */
async function runEditor(env: KeyEnv, ref: string, name: string, original: string, text: string): Promise<void> {
  const { parseEditable, stripNotes } = await editableFormat();
  let saved: string;
  try {
    saved = stripNotes(await env.suspend(() => env.deps.editText(text, name)));
  } catch (err) {
    return say(env, `the editor failed: ${errorMessage(err)}; nothing changed`, "error");
  }
  if (saved === original) return say(env, "no change");
  if (!saved.trim()) return say(env, "the file is empty; nothing changed", "error");
  try {
    applied(env, await env.deps.client.edit(ref, parseEditable(saved)), `edited ${name}`);
  } catch (err) {
    if (!(err instanceof TroupeError) || err.code !== "bad_request") return failed(env, err);
    env.dispatch({ type: "open", modal: { kind: "edit-error", ref, name, original, text: saved, error: err.message, busy: false } });
  }
}

/** `y` after a refused edit: the editor again, on the text as saved with the error on top. */
export function editAgain(env: KeyEnv, m: EditErrorModal): void {
  env.dispatch({ type: "close" });
  void editableFormat().then(({ withNote }) => runEditor(env, m.ref, m.name, m.original, withNote(m.text, m.error)));
}

export function notDetailable(env: KeyEnv): string | null {
  const r = row(env);
  if (r?.kind !== "phase") return "select a phase to detail";
  const s = r.phase.status;
  return s === "approved" || s === "in_progress" || s === "blocked" ? null : `${rowName(r)} is ${s}: only an approved phase is detailed`;
}

const initiativeOf = (r: PhaseRow) => r.initiative;

export function notDispatchable(env: KeyEnv): string | null {
  const r = row(env);
  if (!r) return "no initiative selected";
  const i = initiativeOf(r);
  return i.status === "active" ? null : `${i.slug} is ${i.status}`;
}

/** `g`: asks before dispatching (it starts paid agents); stopping needs no question. */
export function toggleDispatch(env: KeyEnv): "dialog" | void {
  const r = row(env);
  if (!r) return;
  const i = initiativeOf(r);
  if (i.dispatch) {
    env.deps.runs.stopDispatch(i.id).then((it) => applied(env, { initiatives: [it] }, `stopped dispatching ${i.slug}; agents under way go on, their work is merged at the next dispatch`), (err: unknown) => failed(env, err));
    return;
  }
  env.dispatch({ type: "open", modal: { kind: "work-confirm", confirm: { action: "dispatch", initiativeId: i.id, title: i.slug }, busy: false } });
  return "dialog";
}

export function openDetail(env: KeyEnv): void {
  const r = row(env);
  if (r?.kind !== "phase") return;
  env.dispatch({ type: "open", modal: { kind: "work-confirm", confirm: { action: "detail", phaseId: r.phase.id, title: rowName(r) }, busy: false } });
}

export function notRetryable(env: KeyEnv): string | null {
  const r = row(env);
  if (r?.kind !== "task") return "select a blocked or failed task";
  const s = r.task.status;
  return s === "blocked" || s === "failed" ? null : `${rowName(r)} is ${s}: only a blocked or failed task is retried`;
}

export function retry(env: KeyEnv): void {
  const r = row(env);
  if (r?.kind !== "task") return;
  env.deps.client.retry(r.key).then((task) => applied(env, { tasks: [task] }, `${rowName(r)} is pending again`), (err: unknown) => failed(env, err));
}

/** The selected task's agent, when the dashboard knows it. */
function taskAgent(env: KeyEnv) {
  const r = row(env);
  return r?.kind === "task" && r.task.agentId ? (env.entities.agents[r.task.agentId] ?? null) : null;
}

export function noDiff(env: KeyEnv): string | null {
  const r = row(env);
  if (!r) return "nothing selected";
  if (r.kind === "phase") return "select a task or an initiative: a phase has no branch of its own";
  if (r.kind === "task" && !taskAgent(env)) return `${rowName(r)} has no agent (and no branch) yet`;
  return null;
}

export function openDiff(env: KeyEnv): void {
  const r = row(env);
  if (r?.kind === "initiative") {
    const i = r.initiative;
    env.openTextDiff(i.id, `Diff · ${i.slug} · ${i.baseRef}...${i.branch}`, env.deps.client.initiativeDiff(i.id));
    return;
  }
  const a = taskAgent(env);
  if (r?.kind === "task" && a) env.openAgentDiff(a, `Diff · ${rowName(r)} · ${a.name}${a.branch ? ` · ${a.branch}` : ""}`);
}

export function noAgentToOpen(env: KeyEnv): string | null {
  const r = row(env);
  if (r?.kind !== "task") return "select a task to open its agent";
  return taskAgent(env) ? null : `${rowName(r)} has no agent yet`;
}

/** `o`: the agents view, on the task's agent (a filter that hides it is cleared). */
export function openAgent(env: KeyEnv): void {
  const a = taskAgent(env);
  if (!a) return;
  if (env.ui.filter.text && env.screen.ids.indexOf(a.id) === -1) env.dispatch({ type: "filterDone", keep: false });
  env.dispatch({ type: "view", view: "agents" });
  env.dispatch({ type: "pane", pane: "list" });
  env.dispatch({ type: "select", id: a.id });
}
