import { errorMessage } from "../../errors.ts";
import { formValues, makeForm, textField, FormError } from "../kit/form.ts";
import { ConfirmDialog } from "../kit/components/ConfirmDialog.tsx";
import type { DialogsOf } from "../kit/dialogs/dialog-spec.ts";
import type { KeyEnv } from "../kit/keys/binding.ts";
import { closeSaying, formFailed } from "../kit/keys/helpers.ts";
import { RejectDialog } from "./components/RejectDialog.tsx";
import { WorkConfirmDialog } from "./components/WorkConfirmDialog.tsx";
import { rowName } from "./phase-rows.ts";
import type { PhaseModal, RejectModal, WorkConfirmModal } from "./phases-ui.ts";
import { applied, editAgain, row } from "./work-actions.ts";

/** The phases view's dialogs: reject a proposal, start paid agents (detail, dispatch), edit again after a refusal. */

export function openReject(env: KeyEnv): void {
  const r = row(env);
  if (!r) return;
  const proposer = r.kind === "phase" ? r.phase.proposedBy : r.kind === "task" ? r.task.proposedBy : null;
  const agent = proposer ? (env.entities.agents[proposer]?.name ?? proposer) : null;
  const form = makeForm([
    textField("reason", "Reason", { multiline: true, placeholder: "what is wrong with it" }),
    ...(agent ? [{ kind: "toggle" as const, id: "revise", label: `Send it back to ${agent} to propose again`, value: false }] : []),
  ]);
  env.dispatch({ type: "open", modal: { kind: "reject", ref: r.key, title: rowName(r), form, busy: false } });
}

function sendReject(env: KeyEnv, m: RejectModal): Promise<void> {
  const v = formValues(m.form);
  const reason = String(v.reason ?? "").trim();
  if (!reason) return Promise.reject(new FormError("type a reason"));
  return env.deps.client.reject(m.ref, { reason, revise: v.revise === true }).then((items) => {
    env.dispatch({ type: "close" });
    applied(env, items, `rejected ${m.title}${v.revise === true ? "; its agent proposes again" : ""}`);
  });
}

function reject(env: KeyEnv, m: RejectModal): void {
  const p = sendReject(env, m);
  env.dispatch({ type: "busy", busy: true });
  p.catch((err: unknown) => formFailed(env, err));
}

/** `y` on detail or dispatch: starts what was asked; the dialog closes with the result either way. */
function confirmWork(env: KeyEnv, m: WorkConfirmModal): void {
  env.dispatch({ type: "busy", busy: true });
  const fail = (err: unknown) => closeSaying(env, errorMessage(err), "error");
  const c = m.confirm;
  switch (c.action) {
    case "detail":
      env.deps.runs.detail(c.phaseId).then((a) => {
        env.mirror.upsertAgent(a);
        closeSaying(env, `started ${a.name} to detail ${c.title}`);
      }, fail);
      return;
    case "dispatch":
      env.deps.runs.dispatch(c.initiativeId).then((i) => {
        env.mirror.upsertWork({ initiatives: [i] });
        closeSaying(env, `dispatching ${c.title}`);
      }, fail);
      return;
  }
}

export const PHASE_DIALOGS: DialogsOf<PhaseModal> = {
  reject: { keys: "field", render: (m, { width, height }) => <RejectDialog modal={m} width={width} height={height} />, submit: reject },
  "work-confirm": {
    keys: "confirm",
    render: (m, { width, height }) => <WorkConfirmDialog confirm={m.confirm} busy={m.busy} width={width} height={height} />,
    submit: confirmWork,
  },
  "edit-error": {
    keys: "confirm",
    render: (m, { width, height }) => (
      <ConfirmDialog title={`${m.name} was not saved`} question={`${m.error}\n\nEdit it again? (no: nothing changes)`} busy={m.busy} width={width} height={height} />
    ),
    submit: editAgain,
  },
};
