import type { SpawnRequest } from "../../../protocol/api.ts";
import type { Agent, Conversation } from "../../../protocol/entities.ts";
import type { Profile } from "../../../protocol/profile.ts";
import { STATUS } from "../../../protocol/status.ts";
import { conversationsFrom, messagesFrom, orphanConversations, orphanMessages, type EntitiesState } from "../../mirror/entities-state.ts";
import { FormError, choiceField, formValues, makeForm, textField, type ChoiceOption, type FormState } from "../../kit/form.ts";
import type { MessagesModal, QuestionsModal } from "./modals.ts";
import type { DashboardClient, ProviderChoice } from "../../mirror/deps.ts";

/**
 * The `a` dialog for `agent`'s unread messages to the person, with a reply field (sent to it).
 * With none, the unread messages no listed agent sent (no reply: there is no one to send it to).
 */
export function messagesModal(agent: Agent | null, entities: EntitiesState): MessagesModal | null {
  const own = agent ? messagesFrom(entities, agent.id) : [];
  const messages = own.length ? own : orphanMessages(entities);
  if (!messages.length) return null;
  const replyTo = own.length && agent ? agent.id : null;
  const title = replyTo && agent ? `Messages from ${agent.name}` : "Messages for you";
  const form = makeForm([textField("reply", replyTo && agent ? `Reply to ${agent.name} (optional)` : "Reply", { multiline: true, placeholder: "enter with nothing typed closes" })]);
  return { kind: "messages", title, messages, replyTo, form, busy: false };
}

/** The reply typed in the messages dialog; empty: none. */
export function replyText(form: FormState): string {
  return String(formValues(form).reply ?? "").trim();
}

/**
 * The `a` dialog for `agent`: its questions when it waits, and the user conversations it asked.
 * With nothing there, the open user conversations no listed agent asked. Null when nothing waits.
 */
export function questionsModal(agent: Agent | null, entities: EntitiesState): QuestionsModal | null {
  const questions = agent && STATUS[agent.status].needsPerson ? (agent.questions ?? []) : [];
  let conversations: Conversation[] = agent ? conversationsFrom(entities, agent.id) : [];
  let title = agent ? `Questions from ${agent.name}` : "Questions for you";
  if (!questions.length && !conversations.length) {
    conversations = orphanConversations(entities);
    title = "Questions for you";
  }
  if (!questions.length && !conversations.length) return null;
  const many = questions.length + conversations.length > 1;
  const fields = [
    ...questions.map((q, i) => textField(`q:${q.id}`, many ? `answer ${i + 1}` : "answer", { multiline: true })),
    ...conversations.map((c) => textField(`c:${c.id}`, `answer to ${c.fromName}`, { multiline: true })),
  ];
  return {
    kind: "questions",
    agentId: questions.length ? agent!.id : null,
    title,
    questions,
    conversations,
    form: makeForm(fields),
    busy: false,
  };
}

export interface AnswerResult {
  agent: Agent | null;
  conversations: Conversation[];
}

/** Sends every answer: the questions as one resume, each conversation through `answer`. */
export async function submitQuestions(client: Pick<DashboardClient, "resume" | "answer">, modal: QuestionsModal): Promise<AnswerResult> {
  const values = formValues(modal.form);
  const text = (id: string) => String(values[id] ?? "").trim();
  const missing = modal.form.fields.findIndex((f) => text(f.id) === "");
  if (missing !== -1) throw new FormError(modal.form.fields.length > 1 ? "answer every question" : "type an answer");
  let agent: Agent | null = null;
  if (modal.agentId && modal.questions.length) {
    agent = await client.resume(modal.agentId, { answers: modal.questions.map((q) => ({ id: q.id, answer: text(`q:${q.id}`) })) });
  }
  const conversations: Conversation[] = [];
  for (const c of modal.conversations) conversations.push(await client.answer(c.id, { answer: text(`c:${c.id}`) }));
  return { agent, conversations };
}

const GENERIC = "generic";

const PROFILE = "profile:";

/**
 * Installed providers first and selectable, then the profiles (`profile:<provider>:<name>`: a
 * profile runs its provider's CLI, so it is selectable when that CLI is installed), then the
 * providers not installed, with how to install them.
 */
export function providerOptions(choices: readonly ProviderChoice[], profiles: readonly Profile[] = []): ChoiceOption[] {
  const sorted = [...choices].sort((a, b) => Number(b.installed) - Number(a.installed));
  const option = (p: ProviderChoice): ChoiceOption => ({
    value: p.name,
    label: p.name === GENERIC ? `${p.displayName} (a shell command)` : `${p.displayName}${p.version ? ` ${p.version}` : ""}`,
    disabled: !p.installed,
    note: p.installed ? undefined : `not installed: ${p.install}`,
  });
  const installed = new Set(choices.filter((c) => c.installed).map((c) => c.name));
  const profileOptions = profiles.map((p): ChoiceOption => {
    const usable = p.provider !== null && installed.has(p.provider);
    return {
      value: `${PROFILE}${p.provider ?? ""}:${p.name}`,
      label: `Profile ${p.name}${p.provider ? ` (${p.provider})` : ""}${p.description ? `: ${p.description}` : ""}`,
      disabled: !usable,
      note: usable ? undefined : p.provider ? `${p.provider} is not installed` : "names no provider: use troupe spawn --profile --provider",
    };
  });
  return [...sorted.filter((p) => p.installed).map(option), ...profileOptions, ...sorted.filter((p) => !p.installed).map(option)];
}

export function newAgentForm(options: ChoiceOption[] | null): FormState {
  const providers = options ?? [{ value: "", label: "checking installed agent CLIs…", disabled: true }];
  return makeForm([
    choiceField("provider", "Provider", providers),
    textField("prompt", "Prompt (for generic: the shell command)", { multiline: true }),
    textField("name", "Name (optional)", { placeholder: "an unused adjective-animal" }),
    textField("model", "Model (optional)", { placeholder: "the provider's default" }),
    textField("baseRef", "Base ref (optional)", { placeholder: "HEAD" }),
    { kind: "toggle", id: "worktree", label: "Own git worktree", value: true },
  ]);
}

/** The spawn request the new-agent form describes. */
export function spawnRequest(form: FormState, env: Record<string, string>): SpawnRequest {
  const v = formValues(form);
  const s = (k: string) => String(v[k] ?? "").trim();
  const choice = s("provider");
  if (!choice) throw new FormError("no installed provider to start");
  // a profile's choice carries its provider, so a generic one's text is its command too
  const [provider, profile] = choice.startsWith(PROFILE) ? choice.slice(PROFILE.length).split(":") : [choice, undefined];
  const prompt = String(v.prompt ?? "").trim();
  if (!prompt) throw new FormError(provider === GENERIC ? "type the command to run" : "type a prompt");
  const opt = (k: string) => s(k) || undefined;
  return {
    ...(profile ? { profile } : { provider }),
    ...(provider === GENERIC ? { command: prompt } : { prompt }),
    name: opt("name"),
    model: opt("model"),
    baseRef: opt("baseRef"),
    worktree: v.worktree === true,
    env,
  };
}

export function resumeForm(placeholder = "what to do next"): FormState {
  return makeForm([textField("message", "Message", { multiline: true, placeholder })]);
}

export function resumeMessage(form: FormState): string {
  const m = String(formValues(form).message ?? "").trim();
  if (!m) throw new FormError("type a message");
  return m;
}
