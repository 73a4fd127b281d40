import type { Agent } from "../../protocol/entities.ts";
import { errorMessage } from "../../errors.ts";
import type { Message } from "../../protocol/message.ts";
import { messagesModal, newAgentForm, providerOptions, questionsModal, replyText, resumeForm, resumeMessage, spawnRequest, submitQuestions } from "./forms.ts";
import type { Modal } from "../shell/ui-state.ts";
import { FormError } from "../shared/form.ts";
import { decidePermission } from "../permissions/decide.ts";
import { permissionModal } from "../permissions/permission-form.ts";
import type { KeyEnv } from "../keys/binding.ts";
import { formFailed, say } from "../keys/helpers.ts";
import { submitReject } from "../phases/work-actions.ts";
import { stopThenTakeOver } from "../agents/take-over.ts";

/** The dialogs that hold a form. */
export type FormModal = Extract<Modal, { kind: "questions" | "new" | "resume" | "reject" | "messages" | "permission" }>;

export function formModal(env: KeyEnv): FormModal | null {
  const m = env.ui.modal;
  return m.kind === "questions" || m.kind === "new" || m.kind === "resume" || m.kind === "reject" || m.kind === "messages" || m.kind === "permission" ? m : null;
}

/** Why `a` has nothing to open for the selected agent, or null. */
export function nothingToAnswer(env: KeyEnv): string | null {
  if (permissionModal(env.selected, env.entities) || questionsModal(env.selected, env.entities) || messagesModal(env.selected, env.entities)) return null;
  return env.selected ? `${env.selected.name} has no questions or messages for you` : "nothing waits for an answer";
}

/**
 * A permission request first (the agent's process waits on it), then questions (the agent is
 * blocked on them); else the agent's unread messages, marked read as they show.
 */
export function openAnswer(env: KeyEnv): void {
  const modal = permissionModal(env.selected, env.entities) ?? questionsModal(env.selected, env.entities) ?? messagesModal(env.selected, env.entities);
  if (!modal) return;
  env.dispatch({ type: "open", modal });
  if (modal.kind === "messages") markShown(env, modal.messages);
}

function markShown(env: KeyEnv, messages: readonly Message[]): void {
  for (const m of messages) {
    env.deps.client.markRead(m.id).then(
      (read) => env.mirror.upsertMessage(read),
      (err: unknown) => say(env, `could not mark ${m.id} read: ${errorMessage(err)}`, "error"),
    );
  }
}

export function openNewAgent(env: KeyEnv): void {
  env.dispatch({ type: "open", modal: { kind: "new", form: newAgentForm(null), busy: false } });
  // profiles are offered beside the providers; a daemon that cannot list them leaves the providers
  const profiles = env.deps.client.profiles().then((r) => r.profiles, () => []);
  Promise.all([env.deps.listProviders(), profiles]).then(
    ([choices, ps]) => env.dispatch({ type: "form", action: { type: "setOptions", id: "provider", options: providerOptions(choices, ps) } }),
    (err: unknown) => say(env, `could not list providers: ${errorMessage(err)}`, "error"),
  );
}

export function openStop(env: KeyEnv, agent: Agent, attach = false): void {
  env.dispatch({ type: "open", modal: { kind: "stop", agentId: agent.id, name: agent.name, busy: false, attach } });
}

export function openResume(env: KeyEnv, agent: Agent): void {
  env.dispatch({ type: "open", modal: { kind: "resume", agentId: agent.id, name: agent.name, form: resumeForm(), busy: false } });
}

/** Sends the open form: answers, a new agent or a resume message. The dialog closes once the daemon took it. */
export function submitForm(env: KeyEnv): void {
  const { dispatch, deps, mirror } = env;
  const m = formModal(env);
  if (!m || m.busy) return;
  const done = (text: string) => {
    dispatch({ type: "close" });
    say(env, text);
  };
  try {
    switch (m.kind) {
      case "questions": {
        const p = submitQuestions(deps.client, m);
        dispatch({ type: "busy", busy: true });
        p.then((r) => {
          if (r.agent) mirror.upsertAgent(r.agent);
          for (const c of r.conversations) mirror.upsertConversation(c);
          done(r.agent ? `answered ${r.agent.name}; it resumes` : "answered");
        }, (err: unknown) => formFailed(env, err));
        return;
      }
      case "new": {
        const req = spawnRequest(m.form, deps.env);
        dispatch({ type: "busy", busy: true });
        deps.client.spawn(req).then((a) => {
          mirror.upsertAgent(a);
          dispatch({ type: "select", id: a.id });
          done(`started ${a.name}`);
        }, (err: unknown) => formFailed(env, err));
        return;
      }
      case "reject": {
        const p = submitReject(env, m);
        dispatch({ type: "busy", busy: true });
        p.catch((err: unknown) => formFailed(env, err));
        return;
      }
      case "messages": {
        const text = replyText(m.form);
        if (!text) {
          dispatch({ type: "close" });
          return;
        }
        if (!m.replyTo) throw new FormError("no agent to reply to: these came from outside the list");
        dispatch({ type: "busy", busy: true });
        deps.client.send({ to: m.replyTo, text }).then(() => done("reply sent"), (err: unknown) => formFailed(env, err));
        return;
      }
      case "permission":
        decidePermission(env, m);
        return;
      case "resume": {
        const message = resumeMessage(m.form);
        dispatch({ type: "busy", busy: true });
        deps.client.resume(m.agentId, { message }).then((a) => {
          mirror.upsertAgent(a);
          done(`resumed ${a.name}`);
        }, (err: unknown) => formFailed(env, err));
        return;
      }
    }
  } catch (err) {
    formFailed(env, err);
  }
}

export function confirmStop(env: KeyEnv): void {
  const m = env.ui.modal;
  if (m.kind !== "stop" || m.busy) return;
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.stop(m.agentId).then(
    (a) => {
      env.mirror.upsertAgent(a);
      env.dispatch({ type: "close" });
      say(env, `stopped ${a.name}`);
      if (m.attach) void stopThenTakeOver(env, a);
    },
    (err: unknown) => {
      env.dispatch({ type: "close" });
      say(env, errorMessage(err), "error");
    },
  );
}
