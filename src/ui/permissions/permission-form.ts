import type { Agent } from "../../protocol/entities.ts";
import type { PermissionDecision, PermissionRequest } from "../../protocol/permission.ts";
import { suggestRule } from "../../permissions/rules.ts";
import { FormError } from "../kit/form.ts";
import { questionsOf } from "../mirror/request-lines.ts";
import { permissionsOf } from "../mirror/permissions-state.ts";
import type { EntitiesState } from "../mirror/entities-state.ts";
import { choiceField, formValues, isLastField, makeForm, textField, type Field, type FormState } from "../kit/form.ts";
/** A tool call, questions or a plan an agent waits on; `rule`: what allow always adds; `waiting`: its pending requests. */
export interface PermissionModal {
  kind: "permission";
  request: PermissionRequest;
  rule: string;
  waiting: number;
  form: FormState;
  busy: boolean;
}

const REASON = "reason";
const DECISION = "decision";

/** The dialog for a tool call or a plan: allow once (first, selected), allow always, deny with a reason. */
function decisionForm(req: PermissionRequest, rule: string): FormState {
  if (req.kind === "plan") {
    return makeForm([
      choiceField(DECISION, "Your decision", [
        { value: "once", label: "approve the plan" },
        { value: "deny", label: "send it back with a comment" },
      ]),
      textField(REASON, "Comment (sent back to the agent)", { multiline: true, placeholder: "what to change" }),
    ]);
  }
  return makeForm([
    choiceField(DECISION, "Your decision", [
      { value: "once", label: "allow once" },
      { value: "always", label: `allow always for this agent: adds ${rule}` },
      { value: "deny", label: "deny" },
    ]),
    textField(REASON, "Reason (deny: the agent reads it)", { multiline: true, placeholder: "why not, or what to do instead" }),
  ]);
}

/** One field per question: a choice (or a box per option when several may be picked), then a free answer. */
function questionForm(req: PermissionRequest): FormState {
  const fields: Field[] = [];
  questionsOf(req.input).forEach((q, i) => {
    if (q.multiSelect) {
      q.options.forEach((o, j) => fields.push({ kind: "toggle", id: `q:${i}:${j}`, label: o.label, value: false }));
    } else if (q.options.length) {
      fields.push(choiceField(`q:${i}`, q.header || `Question ${i + 1}`, q.options.map((o) => ({ value: o.label, label: o.label, note: o.description }))));
    }
    const other = q.multiSelect ? "Other (optional: added to the ticked ones)" : q.options.length ? "Other (optional: replaces the choice)" : "Your answer";
    fields.push(textField(`o:${i}`, other, { multiline: true }));
  });
  return makeForm(fields);
}

/** The `a` dialog for the agent's oldest pending request, or null when it has none. */
export function permissionModal(agent: Agent | null, entities: EntitiesState): PermissionModal | null {
  if (!agent) return null;
  const all = permissionsOf(entities.permissions, agent.id);
  const request = all[0];
  if (!request) return null;
  // the folder the daemon matches rules against (PermissionService.decide)
  const rule = suggestRule(request.toolName, request.input, agent.worktree ?? agent.cwd);
  const form = request.kind === "question" ? questionForm(request) : decisionForm(request, rule);
  return { kind: "permission", request, rule, waiting: all.length, form, busy: false };
}

const isDeny = (m: PermissionModal): boolean => {
  const active = m.form.fields[m.form.active];
  return active?.id === REASON || formValues(m.form)[DECISION] === "deny";
};

/** What enter does now: move to the next field (a deny's reason, the next question) or submit. */
export function permissionEnter(m: PermissionModal): "next" | "submit" {
  if (m.request.kind === "question") return isLastField(m.form) ? "submit" : "next";
  const active = m.form.fields[m.form.active];
  const reason = String(formValues(m.form)[REASON] ?? "").trim();
  return active?.id === DECISION && formValues(m.form)[DECISION] === "deny" && !reason ? "next" : "submit";
}

/** The answers AskUserQuestion takes: question text → answer (several picked: labels joined with ", "). */
function answers(m: PermissionModal): Record<string, string> {
  const v = formValues(m.form);
  const out: Record<string, string> = {};
  questionsOf(m.request.input).forEach((q, i) => {
    const other = String(v[`o:${i}`] ?? "").trim();
    let answer: string;
    if (q.multiSelect) answer = [...q.options.filter((_, j) => v[`q:${i}:${j}`] === true).map((o) => o.label), ...(other ? [other] : [])].join(", ");
    else answer = other || String(v[`q:${i}`] ?? "");
    if (!answer) throw new FormError(`answer question ${i + 1}: ${q.question}`);
    out[q.question] = answer;
  });
  return out;
}

/** The decision the dialog describes; a deny without a reason is refused in the dialog. */
export function permissionDecision(m: PermissionModal): PermissionDecision {
  // The answers go back beside the questions: Claude Code rejects an updatedInput without them.
  if (m.request.kind === "question") return { behavior: "allow", updatedInput: { ...m.request.input, answers: answers(m) } };
  if (isDeny(m)) {
    const reason = String(formValues(m.form)[REASON] ?? "").trim();
    if (!reason) throw new FormError(m.request.kind === "plan" ? "type a comment: the agent revises its plan from it" : "type a reason: the agent reads it");
    return { behavior: "deny", reason };
  }
  return formValues(m.form)[DECISION] === "always" ? { behavior: "allow", always: true } : { behavior: "allow" };
}

/** The status line once the daemon took the decision. */
export function decidedText(m: PermissionModal, d: PermissionDecision): string {
  const { agentName: who, toolName, kind } = m.request;
  if (kind === "question") return `answered ${who}'s questions`;
  if (kind === "plan") return d.behavior === "allow" ? `approved ${who}'s plan` : `sent ${who}'s plan back`;
  if (d.behavior === "deny") return `denied ${toolName} to ${who}`;
  return d.always ? `allowed ${who} ${m.rule} from now on` : `allowed ${toolName} once for ${who}`;
}

/** Why a held request is no longer pending, as one line. */
export function settledText(req: PermissionRequest, s: { status: PermissionRequest["status"] | null; decidedBy: PermissionRequest["decidedBy"] }): string {
  const what = req.kind === "question" ? `${req.agentName}'s questions` : req.kind === "plan" ? `${req.agentName}'s plan` : `${req.agentName}'s ${req.toolName} request`;
  if (s.status === "cancelled" || s.decidedBy === "ended") return `${what} no longer waits: the agent ended`;
  const how = s.status === "allowed" ? "allowed" : s.status === "denied" ? "denied" : "answered";
  return `${what} was already ${how} ${s.decidedBy === "rule" ? "by a rule" : "elsewhere (another dashboard or the CLI)"}`;
}
