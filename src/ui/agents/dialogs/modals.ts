import type { Conversation, Question } from "../../../protocol/entities.ts";
import type { Message } from "../../../protocol/message.ts";
import type { FormState } from "../../kit/form.ts";

/** The state of each dialog in this folder while it is open (`ui.modal`); `busy`: its action is under way. */

/** Answers for one agent's questions and/or open user conversations, sent together. */
export interface QuestionsModal {
  kind: "questions";
  agentId: string | null;
  title: string;
  questions: Question[];
  conversations: Conversation[];
  form: FormState;
  busy: boolean;
}

export interface NewAgentModal {
  kind: "new";
  form: FormState;
  busy: boolean;
  /** With several sources: the label of the one it starts in (the selected agent's, else the first). */
  source?: string;
}

/** `attach`: the person asked to take it over (`t`): once stopped, it is attached. */
export interface StopModal {
  kind: "stop";
  agentId: string;
  name: string;
  busy: boolean;
  attach?: boolean;
}

/** `P`: push the agent's branch and open its pull request, once the person says yes. */
export interface PullRequestModal {
  kind: "pr";
  agentId: string;
  name: string;
  branch: string;
  busy: boolean;
}

/** `r`: resume a finished agent with a message. */
export interface ResumeModal {
  kind: "resume";
  agentId: string;
  name: string;
  form: FormState;
  busy: boolean;
}

/** `m`: a message to an agent as it is (a running Claude agent takes it in its run). */
export interface MessageModal extends Omit<ResumeModal, "kind"> {
  kind: "message";
}

/** Unread messages to the person from one sender (marked read once shown), with an optional reply. */
export interface MessagesModal {
  kind: "messages";
  title: string;
  messages: Message[];
  replyTo: string | null;
  form: FormState;
  busy: boolean;
}

export type AgentModal = QuestionsModal | NewAgentModal | StopModal | PullRequestModal | ResumeModal | MessageModal | MessagesModal;
