import { USER, type Agent } from "../protocol/entities.ts";
import type { DaemonEvent } from "../protocol/events.ts";
import { noticeText, type Notice, type NoticeReason } from "../protocol/notice.ts";
import type { PermissionRequest } from "../protocol/permission.ts";

/** An agent's name by id, for events that carry only the id (a phase's `proposedBy`); null when unknown. */
export type NameOf = (agentId: string) => string | null;

const notice = (agentId: string, agentName: string, reason: NoticeReason, text: string, key: string): Notice => ({
  agentId,
  agentName,
  reason,
  text: noticeText(text),
  key,
});

function agentNotice(a: Agent): Notice | null {
  switch (a.status) {
    case "waiting": {
      const qs = a.questions ?? [];
      if (!qs.length) return null;
      const more = qs.length > 1 ? ` (+${qs.length - 1} more)` : "";
      return notice(a.id, a.name, "question", `${noticeText(qs[0]!.question, 140)}${more}`, `question:${a.id}:${a.session}`);
    }
    case "failed":
      return notice(a.id, a.name, "failed", a.failure ? `${a.failure.class}: ${a.failure.evidence}` : (a.error ?? "failed"), `failed:${a.id}:${a.session}`);
    case "done":
      return notice(a.id, a.name, "done", a.result ?? "finished", `done:${a.id}:${a.session}`);
    default:
      return null;
  }
}

/** What the person reads first of a tool call: the command, the file, else the input's first string. */
function permissionText(r: PermissionRequest): string {
  switch (r.kind) {
    case "question": {
      const qs = r.input.questions;
      const first = Array.isArray(qs) && qs[0] && typeof qs[0] === "object" ? (qs[0] as Record<string, unknown>).question : undefined;
      return typeof first === "string" ? first : "a question";
    }
    case "plan":
      return "a plan to approve";
    case "tool": {
      const i = r.input;
      const detail = [i.command, i.file_path, i.path, i.url, i.pattern].find((v) => typeof v === "string") ?? Object.values(i).find((v) => typeof v === "string");
      return typeof detail === "string" ? `${r.toolName}: ${detail}` : r.toolName;
    }
  }
}

/**
 * The notice an event calls for, or null. Only what needs the person (or ends a run) counts: an
 * agent that starts waiting on questions, fails or finishes; a pending permission request; a
 * phase or task an agent proposed; a question or a message to the user.
 */
export function noticeOf(ev: DaemonEvent, nameOf: NameOf): Notice | null {
  switch (ev.type) {
    case "agent:created":
    case "agent:updated":
      return agentNotice(ev.agent);
    case "permission:created":
    case "permission:updated": {
      const r = ev.request;
      return r.status === "pending" ? notice(r.agentId, r.agentName, "permission", permissionText(r), `permission:${r.id}`) : null;
    }
    case "conversation:created": {
      const c = ev.conversation;
      return c.toId === USER ? notice(c.fromId, c.fromName, "question", c.question, `conversation:${c.id}`) : null;
    }
    case "message:created": {
      const m = ev.message;
      return m.toId === USER ? notice(m.fromId, m.fromName, "message", m.text, `message:${m.id}`) : null;
    }
    case "phase:created":
    case "phase:updated": {
      const p = ev.phase;
      if (p.status !== "proposed" || !p.proposedBy) return null;
      return notice(p.proposedBy, nameOf(p.proposedBy) ?? p.proposedBy, "approval", `phase ${p.title}`, `phase:${p.id}`);
    }
    case "task:created":
    case "task:updated": {
      const t = ev.task;
      if (t.status !== "proposed" || !t.proposedBy) return null;
      return notice(t.proposedBy, nameOf(t.proposedBy) ?? t.proposedBy, "approval", `task ${t.title}`, `task:${t.id}`);
    }
    default:
      return null;
  }
}
