import type { Agent, AgentStatus, Conversation } from "../../protocol/entities.ts";
import { USER } from "../../protocol/party.ts";
import type { DaemonEvent } from "../../protocol/events.ts";
import type { Message } from "../../protocol/message.ts";
import type { PermissionRequest } from "../../protocol/permission.ts";
import { assertNever } from "../../errors.ts";
import { STATUS } from "../../protocol/status.ts";
import { treeRows, type TreeRow } from "../../output/tree.ts";
import { initialPermissions, permissionEvent, permissionsSnapshot, type PermissionsState } from "./permissions-state.ts";
import { initialWork, workEvents, workSnapshot, type WorkEvent, type WorkSnapshot, type WorkState } from "./work-state.ts";

/** The agent asked the person questions (its status needs the person, and it has some). */
export const hasQuestions = (a: Agent): boolean => STATUS[a.status].needsPerson && (a.questions?.length ?? 0) > 0;

/** What the daemon told us: agents and the conversations the person may need to answer. */
export interface EntitiesState {
  agents: Readonly<Record<string, Agent>>;
  conversations: Readonly<Record<string, Conversation>>;
  /**
   * Messages to the person: the unread, and those read while we watched (kept so that a late
   * `delivered` event, after our own read mark, cannot bring one back).
   */
  messages: Readonly<Record<string, Message>>;
  /** Initiatives, phases and tasks (`work-state.ts`). */
  work: WorkState;
  /** Permission requests waiting for the person (`permissions-state.ts`). */
  permissions: PermissionsState;
  /** True once the first snapshot arrived. */
  loaded: boolean;
}

export type EntitiesAction =
  /** `work`, `messages` absent: not fetched (the part held stays). */
  | { type: "snapshot"; agents: Agent[]; conversations: Conversation[]; work?: WorkSnapshot; messages?: Message[]; permissions?: PermissionRequest[] }
  | { type: "events"; events: DaemonEvent[] };

export const initialEntities: EntitiesState = { agents: {}, conversations: {}, messages: {}, work: initialWork, permissions: initialPermissions, loaded: false };

const CONVERSATION_RANK: Record<Conversation["status"], number> = { pending: 0, delivered: 1, answered: 2, expired: 2 };

/** The newer of two versions of one agent: events and snapshots may arrive out of order. */
function newerAgent(cur: Agent | undefined, next: Agent): Agent {
  return cur && cur.updatedAt > next.updatedAt ? cur : next;
}

const MESSAGE_RANK: Record<Message["status"], number> = { queued: 0, delivered: 1, read: 2 };

/** A message only moves forward (queued, delivered, read); an older version never wins. */
function newerMessage(cur: Message | undefined, next: Message): Message {
  return cur && MESSAGE_RANK[cur.status] > MESSAGE_RANK[next.status] ? cur : next;
}

function newerConversation(cur: Conversation | undefined, next: Conversation): Conversation {
  return cur && CONVERSATION_RANK[cur.status] > CONVERSATION_RANK[next.status] ? cur : next;
}

export function entitiesReducer(state: EntitiesState, action: EntitiesAction): EntitiesState {
  switch (action.type) {
    case "snapshot": {
      // The snapshot is the truth about which agents exist; an event newer than it wins per agent.
      const agents: Record<string, Agent> = {};
      for (const a of action.agents) agents[a.id] = newerAgent(state.agents[a.id], a);
      const conversations: Record<string, Conversation> = {};
      for (const c of action.conversations) conversations[c.id] = newerConversation(state.conversations[c.id], c);
      // A conversation we hold but the (pending-only) snapshot lacks was answered or expired meanwhile.
      const work = action.work ? workSnapshot(state.work, action.work) : state.work;
      let messages = state.messages;
      if (action.messages) {
        // the snapshot lists the unread: one held unread but missing from it was read meanwhile
        const next: Record<string, Message> = {};
        for (const m of Object.values(state.messages)) if (m.status === "read") next[m.id] = m;
        for (const m of action.messages) next[m.id] = newerMessage(state.messages[m.id], m);
        messages = next;
      }
      const permissions = action.permissions ? permissionsSnapshot(state.permissions, action.permissions) : state.permissions;
      return { agents, conversations: dropSettled(conversations), messages, work, permissions, loaded: true };
    }
    case "events": {
      let agents: Record<string, Agent> | null = null;
      let conversations: Record<string, Conversation> | null = null;
      let messages: Record<string, Message> | null = null;
      let permissions = state.permissions;
      const work: WorkEvent[] = [];
      for (const ev of action.events) {
        switch (ev.type) {
          case "agent:created":
          case "agent:updated": {
            const cur = (agents ?? state.agents)[ev.agent.id];
            const next = newerAgent(cur, ev.agent);
            if (next === cur) break;
            agents ??= { ...state.agents };
            agents[ev.agent.id] = next;
            break;
          }
          case "agent:removed": {
            if (!(agents ?? state.agents)[ev.agentId]) break;
            agents ??= { ...state.agents };
            delete agents[ev.agentId];
            break;
          }
          case "conversation:created":
          case "conversation:updated": {
            const cur = (conversations ?? state.conversations)[ev.conversation.id];
            const next = newerConversation(cur, ev.conversation);
            if (next === cur) break;
            conversations ??= { ...state.conversations };
            if (isOpen(next)) conversations[next.id] = next;
            else delete conversations[next.id];
            break;
          }
          case "agent:output":
          case "resync":
            break; // output lives outside React state; resync is the mirror's business
          case "initiative:created":
          case "initiative:updated":
          case "phase:created":
          case "phase:updated":
          case "phase:removed":
          case "task:created":
          case "task:updated":
          case "task:removed":
            work.push(ev);
            break;
          case "message:created":
          case "message:updated": {
            if (ev.message.toId !== USER) break; // between agents: not the person's business
            const cur = (messages ?? state.messages)[ev.message.id];
            const next = newerMessage(cur, ev.message);
            if (next === cur || (!cur && next.status === "read")) break;
            messages ??= { ...state.messages };
            messages[next.id] = next;
            break;
          }
          case "agent:account_switched":
            break; // the agent itself comes as agent:updated; the switch is for logs and scripts
          case "permission:created":
          case "permission:updated":
            permissions = permissionEvent(permissions, ev.request);
            break;
          default:
            assertNever(ev);
        }
      }
      const nextWork = work.length ? workEvents(state.work, work) : state.work;
      if (!agents && !conversations && !messages && nextWork === state.work && permissions === state.permissions) return state;
      return {
        ...state,
        permissions,
        agents: agents ?? state.agents,
        conversations: conversations ?? state.conversations,
        messages: messages ?? state.messages,
        work: nextWork,
      };
    }
  }
}

function dropSettled(convs: Record<string, Conversation>): Record<string, Conversation> {
  for (const [id, c] of Object.entries(convs)) if (!isOpen(c)) delete convs[id];
  return convs;
}

/** Not yet answered or expired. */
function isOpen(c: Conversation): boolean {
  return c.status === "pending" || c.status === "delivered";
}

/** Open conversations addressed to the person. */
export function userConversations(state: EntitiesState): Conversation[] {
  return Object.values(state.conversations)
    .filter((c) => c.toId === USER && isOpen(c))
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** Open user conversations asked by `agentId`. */
export function conversationsFrom(state: EntitiesState, agentId: string): Conversation[] {
  return userConversations(state).filter((c) => c.fromId === agentId);
}

/** Open user conversations whose asker is not an agent we list (a script, a shell). */
export function orphanConversations(state: EntitiesState): Conversation[] {
  return userConversations(state).filter((c) => !state.agents[c.fromId]);
}

/** Unread messages to the person, oldest first. */
export function userMessages(state: EntitiesState): Message[] {
  return Object.values(state.messages).filter((m) => m.status !== "read").sort((a, b) => a.seq - b.seq);
}

/** Unread messages `agentId` sent the person. */
export function messagesFrom(state: EntitiesState, agentId: string): Message[] {
  return userMessages(state).filter((m) => m.fromId === agentId);
}

/** Unread messages whose sender is not an agent we list (a shell, a removed agent). */
export function orphanMessages(state: EntitiesState): Message[] {
  return userMessages(state).filter((m) => !state.agents[m.fromId]);
}

/** Agent ids with an open user conversation, an unread message to the person or a pending permission request. */
export function waitingOnPerson(state: EntitiesState): Set<string> {
  const ids = new Set(userConversations(state).map((c) => c.fromId));
  for (const m of userMessages(state)) ids.add(m.fromId);
  for (const r of Object.values(state.permissions.pending)) ids.add(r.agentId);
  return ids;
}

/** True when the agent waits for the person: questions, a question to the user it is blocked on, an unread message, or a tool call to allow. */
export function needsPerson(agent: Agent, state: EntitiesState): boolean {
  return hasQuestions(agent) || waitingOnPerson(state).has(agent.id);
}

const STATUS_ORDER: Record<AgentStatus, number> = { waiting: 0, attached: 1, starting: 2, running: 3, blocked: 4, failed: 5, stopped: 6, done: 7 };

export interface AgentFilter {
  statuses: AgentStatus[];
  words: string[];
}

const STATUSES = Object.keys(STATUS_ORDER) as AgentStatus[];

/** `/` filter text: words that name a status (or `is:status`) filter by status, any other word by text. */
export function parseFilter(text: string): AgentFilter {
  const statuses: AgentStatus[] = [];
  const words: string[] = [];
  for (const raw of text.toLowerCase().split(/\s+/).filter(Boolean)) {
    const w = raw.replace(/^(is|status):/, "");
    if ((STATUSES as string[]).includes(w)) statuses.push(w as AgentStatus);
    else words.push(raw);
  }
  return { statuses, words };
}

/** Whether the agent is listed under the filter. */
export function matchesFilter(agent: Agent, f: AgentFilter): boolean {
  if (f.statuses.length && !f.statuses.includes(agent.status)) return false;
  if (!f.words.length) return true;
  const hay = `${agent.name} ${agent.provider} ${agent.status} ${agent.prompt ?? ""} ${agent.command ?? ""} ${agent.branch ?? ""}`.toLowerCase();
  return f.words.every((w) => hay.includes(w));
}

/** The list's order: those needing the person first, then by status, newest first within, then by name. */
export function compareInList(a: Agent, b: Agent, needing: (a: Agent) => boolean): number {
  const rank = (x: Agent) => (needing(x) ? -1 : STATUS_ORDER[x.status]);
  return rank(a) - rank(b) || b.createdAt - a.createdAt || a.name.localeCompare(b.name);
}

/**
 * The list as shown: those needing the person first, then by status, newest first within; each
 * worker right under the agent that started it, in that order among its siblings. An agent
 * needing the person is lifted out of its parent's subtree to the top (its own workers stay under
 * it); one whose parent is gone or filtered out is at the top level, in its place by that order.
 * (The dashboard keeps it between states: `ui/agents/list-index.ts`.)
 */
export function visibleRows(state: EntitiesState, filterText: string): TreeRow<Agent>[] {
  const f = parseFilter(filterText);
  const needs = waitingOnPerson(state);
  const needing = (a: Agent) => needs.has(a.id) || hasQuestions(a);
  const sorted = Object.values(state.agents)
    .filter((a) => matchesFilter(a, f))
    .sort((a, b) => compareInList(a, b, needing));
  return treeRows(sorted, needing);
}

/** The agents of `visibleRows`, in its order. */
export function visibleAgents(state: EntitiesState, filterText: string): Agent[] {
  return visibleRows(state, filterText).map((r) => r.item);
}
