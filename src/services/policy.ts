import { TroupeError } from "../errors.ts";
import type { Caller } from "../agents/caller.ts";

/**
 * Who may do what, as one table. Every method of the Services API names its action here and
 * calls `authorize` before it acts, so every adapter (HTTP, MCP) gets the same rules.
 *
 * The rules guard against a confused or misbehaving agent, not a hostile process of the same
 * Unix user (see docs/security.md).
 */
export type Rule =
  /** the person and every agent */
  | "anyone"
  /** the person alone (no token) */
  | "person"
  /** an agent, about itself only (never the person: it has no signal file) */
  | "agent"
  /** the person, the target agent itself, and the agents that started it (transitively) */
  | "lineage"
  /** the person, and the agent the target is (a conversation's addressee) */
  | "addressee";

/** Each action: its rule, and what it does in words (`$` is the target's name), for refusals. */
export const POLICY = {
  "daemon.health": ["anyone", "check the daemon's health"],
  "daemon.stop": ["person", "stop the daemon"],
  // removes worktrees: the person's call, never an agent's
  "daemon.gc": ["person", "clean up worktrees"],
  // reading is open to every agent: they coordinate by names and by each other's output, and the
  // same Unix user can read the files anyway
  "agents.list": ["anyone", "list agents"],
  "agents.get": ["anyone", "read $"],
  "agents.output": ["anyone", "read the output of $"],
  // waiting for an agent to end is reading it (a supervisor's handoff waits on its worker)
  "agents.wait": ["anyone", "wait for $"],
  // a spawned agent is the caller's child (its parent_id)
  "agents.spawn": ["anyone", "spawn an agent"],
  "agents.stop": ["lineage", "stop $"],
  "agents.resume": ["lineage", "resume $"],
  // an environment on a resume reaches another session's secrets: the person's alone
  "agents.resume.env": ["person", "set the environment of $"],
  "agents.remove": ["lineage", "remove $"],
  // the person's own terminal runs the agent's CLI with the agent's environment: never an agent's
  "agents.attach": ["person", "attach to $"],
  "agents.signal": ["agent", "signal"],
  // a mode run is a spawn (the caller's child) with the work model's input; its outputs are proposals the person reviews
  "modes.run": ["anyone", "start a mode agent"],
  "modes.decisions": ["anyone", "read an initiative's decisions"],
  "modes.prompt": ["anyone", "read a mode's prompt"],
  "conversations.ask": ["anyone", "ask"],
  "conversations.list": ["anyone", "list conversations"],
  "conversations.get": ["anyone", "read a conversation"],
  "conversations.answer": ["addressee", "answer a conversation addressed to $"],
  "conversations.listen": ["anyone", "listen"],
  // a message is signed with the caller's identity; whether it wakes a `done` addressee is the
  // `agents.resume` rule (lineage), checked without refusing: otherwise it only queues
  "messages.send": ["anyone", "send a message"],
  // an inbox is always the caller's own (the person's: messages to `user`)
  "messages.inbox": ["anyone", "read its inbox"],
  "messages.read": ["person", "mark a message read"],
  // the dashboard's snapshot of what waits for the person; unlike the inbox it delivers nothing
  "messages.unread": ["person", "list the person's unread messages"],
  "events.open": ["anyone", "follow events"],
  // the work model: anyone reads it (agents read the plan they work in); the person decides
  // what is worked on, so creating, archiving, approving, rejecting, editing and retrying are theirs
  "work.read": ["anyone", "read initiatives, phases and tasks"],
  "initiatives.create": ["person", "create an initiative"],
  "initiatives.archive": ["person", "archive an initiative"],
  "work.approve": ["person", "approve proposals"],
  "work.reject": ["person", "reject a proposal"],
  "work.edit": ["person", "edit a proposal"],
  "work.retry": ["person", "retry a task"],
  // profiles are files anyone here can read; an agent picks one for the workers it spawns
  "profiles.read": ["anyone", "read profiles"],
  // a flow starts agents on a schedule with the environment of whoever added it, and its gate is
  // a command: adding, changing and running flows is the person's; reading them is open
  "flows.read": ["anyone", "read flows"],
  "flows.add": ["person", "add a flow"],
  "flows.remove": ["person", "remove a flow"],
  "flows.enable": ["person", "enable or disable a flow"],
  "flows.run": ["person", "run a flow"],
  // dispatch starts paid agents with the dispatcher's environment and merges as their identity
  "work.dispatch": ["person", "dispatch an initiative"],
  // a budget limits what the person's accounts spend: an agent never raises its own initiative's
  "initiatives.budget": ["person", "set an initiative's budget"],
  // the user's provider accounts hold credentials and are shared by every workspace: the person's alone
  "accounts.list": ["person", "list accounts"],
  "accounts.add": ["person", "add an account"],
  "accounts.remove": ["person", "remove an account"],
  "accounts.reset": ["person", "reset an account"],
  // allowing or denying a tool permission: the person decides, never an agent (its own request included)
  "permissions.decide": ["person", "decide a permission request of $"],
  // an agent's permission tool files its own tool calls (under its identity, never another's)
  "permissions.file": ["agent", "file a permission request"],
  // reading requests (and waiting for a decision) is open, like reading an agent's output
  "permissions.read": ["anyone", "read permission requests"],
} as const satisfies Record<string, readonly [Rule, string]>;

export type Action = keyof typeof POLICY;

/** The agent an action is about (an agent, or a conversation's addressee); null for none or the person. */
export interface Target {
  id: string;
  name: string;
}

/** Each agent's parent (the agent that spawned it), null for one the person spawned. */
export type ParentOf = (agentId: string) => string | null;

/** Whether `ancestor` started `id`, directly or through its children. */
export function isAncestor(ancestor: string, id: string, parentOf: ParentOf): boolean {
  const seen = new Set<string>();
  for (let p = parentOf(id); p !== null && !seen.has(p); p = parentOf(p)) {
    if (p === ancestor) return true;
    seen.add(p);
  }
  return false;
}

/** Whether the rule lets `caller` act on `target`. */
export function allows(rule: Rule, caller: Caller, target: Target | null, parentOf: ParentOf): boolean {
  if (caller.kind === "user") return rule !== "agent";
  const me = caller.agent.id;
  switch (rule) {
    case "anyone":
    case "agent":
      return true;
    case "person":
      return false;
    case "lineage":
      return target !== null && (target.id === me || isAncestor(me, target.id, parentOf));
    case "addressee":
      return target !== null && target.id === me;
  }
}

const WHY: Record<Rule, string> = {
  anyone: "",
  person: "only the person may",
  agent: "only an agent may, for itself",
  lineage: "an agent may act only on itself and on the agents it started",
  addressee: "an agent may answer only what is addressed to it",
};

/** Throws `forbidden` (403) unless the table lets `caller` do `action` to `target`. */
export function authorize(caller: Caller, action: Action, target: Target | null, parentOf: ParentOf): void {
  const [rule, does]: readonly [Rule, string] = POLICY[action];
  if (allows(rule, caller, target, parentOf)) return;
  const who = caller.kind === "agent" ? caller.agent.name : "the person (no TROUPE_AGENT_TOKEN)";
  throw new TroupeError("forbidden", `${who} may not ${does.replace("$", target?.name ?? "the person")}: ${WHY[rule]}`);
}
