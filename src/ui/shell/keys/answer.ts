import { errorMessage } from "../../../errors.ts";
import type { Message } from "../../../protocol/message.ts";
import type { Binding, KeyEnv } from "../../kit/keys/binding.ts";
import { opensDialog, say } from "../../kit/keys/helpers.ts";
import { ch } from "../../kit/keys/key-spec.ts";
import { permissionModal } from "../../permissions/permission-form.ts";
import { messagesModal, questionsModal } from "../../agents/dialogs/agent-forms.ts";

/**
 * `a`: what the selected agent waits on the person for, in one dialog. It spans two features (a
 * permission request before the agents' questions and messages), so the shell holds it.
 */
export const answerKey: Binding = {
  command: "answer",
  keys: [ch("a")],
  help: "allow or deny the agent's tool call; answer its questions or user conversation; read its messages (and reply)",
  hint: "answer",
  disabled: nothingToAnswer,
  run: opensDialog(openAnswer),
};

/** Why `a` has nothing to open for the selected agent, or null. */
function nothingToAnswer(env: KeyEnv): string | null {
  if (permissionModal(env.selected, env.entities) || questionsModal(env.selected, env.entities) || messagesModal(env.selected, env.entities)) return null;
  return env.selected ? `${env.selected.name} has no questions or messages for you` : "nothing waits for an answer";
}

/**
 * A permission request first (the agent's process waits on it), then questions (the agent is
 * blocked on them); else the agent's unread messages, marked read as they show.
 */
function openAnswer(env: KeyEnv): void {
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
