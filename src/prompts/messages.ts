import { shellWord } from "./context.ts";

interface PromptMessage {
  id: string;
  fromId: string;
  fromName: string;
  text: string;
}

const sender = (m: PromptMessage) => (m.fromId === "user" ? "the person (user)" : `agent "${m.fromName}"`);

/**
 * The messages a session's prompt starts with, oldest first. `left`: queued messages that did not
 * fit, which the agent reads with `troupe inbox`.
 */
export function messagesPrompt(troupe: string, msgs: PromptMessage[], left: number): string {
  const body = msgs.map((m) => `[${m.id}] from ${sender(m)}:\n${m.text}`).join("\n\n");
  const more = left ? `\n\n${left} more message(s) wait for you: read them with \`${shellWord(troupe)} inbox\`.` : "";
  return `## Messages for you (oldest first)\n\n${body || "(none fit here)"}${more}\n\n---`;
}

/** What a session woken only by messages is told after them. */
export function messageWakePrompt(troupe: string): string {
  return `You were resumed for the messages above. Act on them as they ask (reply with \`${shellWord(troupe)} send <agent name|--user|--supervisor> "<text>"\` if they need one), then end with \`${shellWord(troupe)} signal done\` as before.`;
}

/** A message written into a running session as a user turn: who it is from, then its text. */
export function liveMessageText(troupe: string, m: PromptMessage): string {
  return `Message ${m.id} from ${sender(m)}, sent to you while you work (act on it if it concerns your task; reply with \`${shellWord(troupe)} send <agent name|--user|--supervisor> "<text>"\` if it needs one):\n\n${m.text}`;
}

interface PromptQuestion {
  id: string;
  fromId: string;
  fromName: string;
  question: string;
}

/** A question written into a running session as a user turn: who asks, the question, and the exact command that answers it. */
export function liveQuestionText(troupe: string, c: PromptQuestion): string {
  const from = c.fromId === "user" ? "The person (user)" : `Agent "${c.fromName}"`;
  // a `troupe listen` of the agent's takes a question its CLI holds unread: it may have seen this one there
  return `${from} asks you while you work (conversation ${c.id}):\n\n${c.question}\n\nAnswer it now with \`${shellWord(troupe)} answer "<answer>" --conversation ${c.id}\` (unless \`${shellWord(troupe)} listen\` gave it to you already and you answered it there), then carry on with your task.`;
}
