import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";
import { AgentsReply } from "./reply-checks.ts";

const REF = { ref: "an agent's id or name" } as const;
const agentReply = reply.key(schema("agents", "AgentResponseSchema"), "agent");

/** Agents: spawn, read, follow, stop, resume, remove, attach; an agent's own signal. */
export const AGENT_ENDPOINTS = {
  listAgents: endpoint({
    method: "GET",
    path: "/v1/agents",
    summary: "Every agent.",
    rule: "anyone",
    does: "list agents",
    reply: reply.key(schema("agents", "AgentsResponseSchema"), "agents", AgentsReply),
  }),
  agent: endpoint({
    method: "GET",
    path: "/v1/agents/:ref",
    summary: "One agent.",
    // reading is open to every agent: they coordinate by names and by each other's output, and
    // the same Unix user can read the files anyway
    rule: "anyone",
    does: "read $",
    target: "agent",
    params: REF,
    reply: agentReply,
  }),
  spawn: endpoint({
    method: "POST",
    path: "/v1/agents",
    summary:
      "Starts an agent: a provider (or a profile) with a prompt, or a command; its worktree, permissions, limits, the client's environment, and (the person only) its account. An agent's spawn is its child and runs on its own account.",
    rule: "anyone",
    does: "spawn an agent",
    body: schema("agents", "SpawnRequestSchema"),
    callerEnv: true,
    // an account is a credential of the person's: an agent's workers run on its own, never one it
    // names (refused before the name is looked up, so the answer tells nothing of which exist)
    fields: { account: { rule: "person", does: "name the account an agent runs on" } },
    reply: agentReply,
    status: 201,
  }),
  stop: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/stop",
    summary: "Status `stopped`: SIGTERM to every process of the agent, SIGKILL 5 s later (a deadline in the store); repeatable.",
    rule: "lineage",
    does: "stop $",
    target: "agent",
    params: REF,
    reply: agentReply,
  }),
  resume: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/resume",
    summary: "Answers and/or a message: a new session of the same provider session.",
    rule: "lineage",
    does: "resume $",
    target: "agent",
    params: REF,
    body: schema("agents", "ResumeRequestSchema"),
    callerEnv: true,
    // an environment reaches another session's secrets: the person's alone
    fields: { env: { rule: "person", does: "set the environment of $" } },
    reply: agentReply,
  }),
  remove: endpoint({
    method: "DELETE",
    path: "/v1/agents/:ref",
    summary:
      "Removes a finished agent: worktree (its branch stays), logs, records. It first finishes its stop (up to 8 s for its processes to be gone, else refused); uncommitted changes are refused (409 `dirty_worktree`, naming them) unless `force`.",
    rule: "lineage",
    does: "remove $",
    target: "agent",
    params: REF,
    query: { force: query.flag("save uncommitted changes as a commit on the agent's branch first") },
    reply: reply.ok,
  }),
  // the person takes the agent over on their terminal: the command to run, then its pid, then its end;
  // the person's own terminal runs the agent's CLI with the agent's environment: never an agent's
  attach: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/attach",
    summary: "The person takes the agent's session over: it is `attached` in a new session, and the client runs `argv` in `cwd` with `env` (the agent's: never printed).",
    rule: "person",
    does: "attach to $",
    target: "agent",
    params: REF,
    reply: reply.key(schema("agents", "AttachResponseSchema"), "attachment"),
  }),
  attachStarted: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/attach/pid",
    summary: "The attached session's interactive CLI runs as `pid`: the daemon watches it end.",
    rule: "person",
    does: "attach to $",
    target: "agent",
    params: REF,
    body: schema("agents", "AttachPidRequestSchema"),
    reply: agentReply,
  }),
  detach: endpoint({
    method: "POST",
    path: "/v1/agents/:ref/detach",
    summary: "The attached session's interactive CLI exited: the agent is back in its earlier status.",
    rule: "person",
    does: "attach to $",
    target: "agent",
    params: REF,
    body: schema("agents", "DetachRequestSchema"),
    reply: agentReply,
  }),
  output: endpoint({
    method: "GET",
    path: "/v1/agents/:ref/output",
    summary: "Stored output chunks, oldest first: after a chunk id, or the newest before one (to read from the end); a page holds at most 10,000 chunks or ~4 MiB; an empty page is the end.",
    rule: "anyone",
    does: "read the output of $",
    target: "agent",
    params: REF,
    query: {
      after: query.int("chunks after this chunk id"),
      before: query.int("the newest chunks before this chunk id"),
      session: query.int("only this session's"),
      limit: query.int("at most this many"),
    },
    reply: reply.key(schema("agents", "OutputResponseSchema"), "chunks"),
  }),
  agentDiff: endpoint({
    method: "GET",
    path: "/v1/agents/:ref/diff",
    summary:
      "The agent's work as lines of a diff, computed by the daemon that owns it: what is committed on its branch since its base, then what is uncommitted in its folder. Each line says what it is (`kind`); a line of code carries its file and its number on each side it is on (`old`, `new`), which review comments point at.",
    rule: "anyone",
    does: "read the diff of $",
    target: "agent",
    params: REF,
    reply: reply.key(schema("agents", "AgentDiffResponseSchema"), "lines"),
  }),
  // waiting for an agent to end is reading it (a supervisor's handoff waits on its worker)
  waitAgent: endpoint({
    method: "GET",
    path: "/v1/agents/:ref/wait",
    summary: "A long poll (at most 60 s a request), woken by the bus: the agent once it is not live (done, waiting, failed, stopped), else as it is when the wait ends.",
    rule: "anyone",
    does: "wait for $",
    target: "agent",
    params: REF,
    query: { wait: query.int("milliseconds to hold the request (default 0)") },
    reply: agentReply,
  }),
  signal: endpoint({
    method: "POST",
    path: "/v1/signal",
    summary:
      "The calling agent's signal (`{status, result | questions | error}`) for its current run: the daemon records it (what the run's end takes), then writes that agent's signal file, by its token, never a path it names. A second, different signal of the run is 409 (the first stands), the same one again 200; a run that has ended takes none (409).",
    rule: "agent",
    does: "signal",
    body: schema("agents", "SignalRequestSchema"),
    reply: reply.ok,
  }),
} as const;
