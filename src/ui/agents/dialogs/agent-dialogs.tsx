import type { Agent } from "../../../protocol/entities.ts";
import type { ProviderChoice } from "../../mirror/deps.ts";
import { errorMessage } from "../../../errors.ts";
import { FormError, isLastField } from "../../kit/form.ts";
import { ConfirmDialog } from "../../kit/components/ConfirmDialog.tsx";
import type { KeyEnv } from "../../kit/keys/binding.ts";
import { closeSaying, formFailed, say } from "../../kit/keys/helpers.ts";
import { stopThenTakeOver } from "../take-over.ts";
import { MessagesDialog } from "./components/MessagesDialog.tsx";
import { NewAgentDialog } from "./components/NewAgentDialog.tsx";
import { QuestionsDialog } from "./components/QuestionsDialog.tsx";
import { ResumeDialog } from "./components/ResumeDialog.tsx";
import type { DialogsOf } from "../../kit/dialogs/dialog-spec.ts";
import { newAgentForm, providerOptions, replyText, resumeForm, resumeMessage, spawnRequest, submitQuestions } from "./agent-forms.ts";
import type { AgentModal, MessageModal, MessagesModal, NewAgentModal, PullRequestModal, QuestionsModal, ResumeModal, StopModal } from "./modals.ts";

/** The dialogs on agents: start one, stop, resume, answer its questions, read its messages (`a`: `answer.ts`). */

/** With several sources: where a new agent starts (the selected agent's source, else the first). */
function newAgentSource(env: KeyEnv): { label: string; remote: boolean } | undefined {
  const sources = env.mirror.getView().sources;
  if (!sources) return undefined;
  return sources.list[env.selected ? sources.indexOf(env.selected.id) : 0] ?? sources.list[0];
}

/**
 * The CLIs found on this machine say nothing of a remote host's: there every provider is offered,
 * and the host's daemon refuses one it does not have, in one line.
 */
const onHost = (choices: ProviderChoice[]): ProviderChoice[] => choices.map((c) => ({ ...c, installed: true, version: undefined }));

/** The client of the daemon a new agent starts in. */
const spawnClient = (env: KeyEnv, source: string | undefined) => (source !== undefined && env.deps.clientAt ? env.deps.clientAt(source) : env.deps.client);

export function openNewAgent(env: KeyEnv): void {
  const where = newAgentSource(env);
  const source = where?.label;
  env.dispatch({ type: "open", modal: { kind: "new", form: newAgentForm(null), busy: false, ...(source !== undefined && { source }) } });
  // profiles are offered beside the providers; a daemon that cannot list them leaves the providers
  const profiles = spawnClient(env, source).profiles().then((r) => r.profiles, () => []);
  Promise.all([env.deps.listProviders().then((cs) => (where?.remote ? onHost(cs) : cs)), profiles]).then(
    ([choices, ps]) => env.dispatch({ type: "form", action: { type: "setOptions", id: "provider", options: providerOptions(choices, ps) } }),
    (err: unknown) => say(env, `could not list providers: ${errorMessage(err)}`, "error"),
  );
}

export function openStop(env: KeyEnv, agent: Agent, attach = false): void {
  env.dispatch({ type: "open", modal: { kind: "stop", agentId: agent.id, name: agent.name, busy: false, attach } });
}

export function openPullRequest(env: KeyEnv, agent: Agent): void {
  if (agent.branch) env.dispatch({ type: "open", modal: { kind: "pr", agentId: agent.id, name: agent.name, branch: agent.branch, busy: false } });
}

export function openResume(env: KeyEnv, agent: Agent): void {
  env.dispatch({ type: "open", modal: { kind: "resume", agentId: agent.id, name: agent.name, form: resumeForm(), busy: false } });
}

/** A message to the agent as it is: a running Claude agent takes it in its run, others when they next look or run. */
export function openMessage(env: KeyEnv, agent: Agent): void {
  env.dispatch({ type: "open", modal: { kind: "message", agentId: agent.id, name: agent.name, form: resumeForm("what to tell it"), busy: false } });
}

/** Every answer: the questions as one resume, each user conversation through `answer`. */
function sendAnswers(env: KeyEnv, m: QuestionsModal): void {
  const p = submitQuestions(env.deps.client, m);
  env.dispatch({ type: "busy", busy: true });
  p.then((r) => {
    if (r.agent) env.mirror.upsertAgent(r.agent);
    for (const c of r.conversations) env.mirror.upsertConversation(c);
    closeSaying(env, r.agent ? `answered ${r.agent.name}; it resumes` : "answered");
  }, (err: unknown) => formFailed(env, err));
}

function spawn(env: KeyEnv, m: NewAgentModal): void {
  const req = spawnRequest(m.form, env.deps.env);
  env.dispatch({ type: "busy", busy: true });
  spawnClient(env, m.source).spawn(req).then((a) => {
    env.mirror.upsertAgent(a, m.source);
    env.dispatch({ type: "select", id: a.id });
    closeSaying(env, `started ${a.name}`);
  }, (err: unknown) => formFailed(env, err));
}

/** The reply, when one was typed; with nothing typed, enter closes. */
function reply(env: KeyEnv, m: MessagesModal): void {
  const text = replyText(m.form);
  if (!text) {
    env.dispatch({ type: "close" });
    return;
  }
  if (!m.replyTo) throw new FormError("no agent to reply to: these came from outside the list");
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.send({ to: m.replyTo, text }).then(() => closeSaying(env, "reply sent"), (err: unknown) => formFailed(env, err));
}

function message(env: KeyEnv, m: MessageModal): void {
  const text = resumeMessage(m.form);
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.send({ to: m.agentId, text }).then(() => closeSaying(env, `sent to ${m.name}`), (err: unknown) => formFailed(env, err));
}

function resume(env: KeyEnv, m: ResumeModal): void {
  const message = resumeMessage(m.form);
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.resume(m.agentId, { message }).then((a) => {
    env.mirror.upsertAgent(a);
    closeSaying(env, `resumed ${a.name}`);
  }, (err: unknown) => formFailed(env, err));
}

/** Stops it; when the person asked to take it over (`t`), takes it over once it has stopped. */
function stop(env: KeyEnv, m: StopModal): void {
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.stop(m.agentId).then(
    (a) => {
      env.mirror.upsertAgent(a);
      closeSaying(env, `stopped ${a.name}`);
      if (m.attach) void stopThenTakeOver(env, a);
    },
    (err: unknown) => closeSaying(env, errorMessage(err), "error"),
  );
}

/** Push, then the pull request (the daemon never opens one for a branch that did not push); the result in one line. */
function pullRequest(env: KeyEnv, m: PullRequestModal): void {
  env.dispatch({ type: "busy", busy: true });
  env.deps.client.pullRequest(m.agentId, { env: env.deps.env }).then(
    (pr) => closeSaying(env, pr.created ? `pushed ${pr.push.branch}; opened pull request #${pr.number}: ${pr.url}` : `pushed ${pr.push.branch}; pull request #${pr.number} is open already: ${pr.url}`),
    (err: unknown) => closeSaying(env, errorMessage(err), "error"),
  );
}

export const AGENT_DIALOGS: DialogsOf<AgentModal> = {
  questions: {
    keys: "field",
    render: (m, { width, height }) => <QuestionsDialog modal={m} width={width} height={height} />,
    submit: sendAnswers,
    // enter moves on in a multi-question dialog and submits on the last field
    enter: (m) => (isLastField(m.form) ? "submit" : "next"),
  },
  new: { keys: "field", render: (m, { width, height }) => <NewAgentDialog modal={m} width={width} height={height} />, submit: spawn },
  resume: { keys: "field", render: (m, { width, height }) => <ResumeDialog modal={m} width={width} height={height} />, submit: resume },
  message: { keys: "field", render: (m, { width, height }) => <ResumeDialog modal={m} width={width} height={height} />, submit: message },
  messages: { keys: "field", render: (m, { width, height }) => <MessagesDialog modal={m} width={width} height={height} />, submit: reply },
  stop: {
    keys: "confirm",
    render: (m, { width, height }) => (
      <ConfirmDialog
        title={m.attach ? `Take over ${m.name}?` : `Stop ${m.name}?`}
        question={
          m.attach
            ? `${m.name} is running. Stop it and every process it started, then take its session over on this terminal?`
            : `Stop ${m.name} and every process it started? Its worktree and output stay; r resumes it later.`
        }
        busy={m.busy}
        width={width}
        height={height}
      />
    ),
    submit: stop,
  },
  pr: {
    keys: "confirm",
    render: (m, { width, height }) => (
      <ConfirmDialog
        title={`Pull request for ${m.name}?`}
        question={`Push ${m.branch} to origin with your git, then open its pull request on GitHub (gh, or the API with your token)?`}
        busy={m.busy}
        width={width}
        height={height}
      />
    ),
    submit: pullRequest,
  },
};
