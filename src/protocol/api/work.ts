import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

const INITIATIVE = { ref: "an initiative's id or slug" } as const;
const ITEM = { ref: "a phase or task (id, or `<initiative>/<slug>` sent encoded: `shop%2Fdb`), or an initiative" } as const;
// the work model: anyone reads it (agents read the plan they work in); the person decides what is
// worked on, so creating, archiving, approving, rejecting, editing and retrying are theirs
const READ = { rule: "anyone", does: "read initiatives, phases and tasks" } as const;
const initiativeReply = reply.key(schema("work", "InitiativeResponseSchema"), "initiative");
const itemsReply = reply.whole(schema("work", "WorkItemsResponseSchema"));

/** The work model: initiatives, their phases and tasks, and dispatch. */
export const WORK_ENDPOINTS = {
  initiatives: endpoint({
    method: "GET",
    path: "/v1/initiatives",
    summary: "Every initiative.",
    ...READ,
    reply: reply.key(schema("work", "InitiativesResponseSchema"), "initiatives"),
  }),
  createInitiative: endpoint({
    method: "POST",
    path: "/v1/initiatives",
    summary: "A new initiative: its base resolved to a commit, its branch `troupe-initiative/<slug>` created there.",
    rule: "person",
    does: "create an initiative",
    body: schema("work", "InitiativeCreateRequestSchema"),
    reply: initiativeReply,
    status: 201,
  }),
  initiative: endpoint({
    method: "GET",
    path: "/v1/initiatives/:ref",
    summary: "One initiative.",
    ...READ,
    params: INITIATIVE,
    reply: initiativeReply,
  }),
  phaseTree: endpoint({
    method: "GET",
    path: "/v1/initiatives/:ref/tree",
    summary: "Its phases in dependency order with their tasks (the `troupe phases --json` shape).",
    ...READ,
    params: INITIATIVE,
    reply: reply.key(schema("work", "PhaseTreeResponseSchema"), "tree"),
  }),
  initiativeWork: endpoint({
    method: "GET",
    path: "/v1/initiatives/:ref/work",
    summary: "Every phase and task of the initiative, content included.",
    ...READ,
    params: INITIATIVE,
    reply: itemsReply,
  }),
  initiativeDiff: endpoint({
    method: "GET",
    path: "/v1/initiatives/:ref/diff",
    summary: "The initiative branch against the commit it started from, as a patch.",
    ...READ,
    params: INITIATIVE,
    reply: reply.key(schema("work", "DiffResponseSchema"), "diff"),
  }),
  archiveInitiative: endpoint({
    method: "POST",
    path: "/v1/initiatives/:ref/archive",
    summary: "Archived (its branch stays).",
    rule: "person",
    does: "archive an initiative",
    params: INITIATIVE,
    reply: initiativeReply,
  }),
  // a budget limits what the person's accounts spend: an agent never raises its own initiative's
  setInitiativeBudget: endpoint({
    method: "POST",
    path: "/v1/initiatives/:ref/budget",
    summary: "A new spend limit over all the initiative's agents; dispatch goes on under it.",
    rule: "person",
    does: "set an initiative's budget",
    params: INITIATIVE,
    body: schema("work", "BudgetRequestSchema"),
    reply: initiativeReply,
  }),
  // dispatch starts paid agents with the dispatcher's environment and merges as their identity
  dispatch: endpoint({
    method: "POST",
    path: "/v1/initiatives/:ref/dispatch",
    summary: "From now on the daemon drives the initiative (detail, execute, merge its approved phases) with the caller's environment and git identity.",
    rule: "person",
    does: "dispatch an initiative",
    params: INITIATIVE,
    body: schema("work", "DispatchRequestSchema"),
    callerEnv: true,
    reply: initiativeReply,
  }),
  stopDispatch: endpoint({
    method: "DELETE",
    path: "/v1/initiatives/:ref/dispatch",
    summary: "No new runs or merges; agents under way go on.",
    rule: "person",
    does: "dispatch an initiative",
    params: INITIATIVE,
    reply: initiativeReply,
  }),
  approve: endpoint({
    method: "POST",
    path: "/v1/approve",
    summary: "Proposed phases → approved, tasks → pending, an initiative id → its proposed goal accepted; all or none. What changed comes back.",
    rule: "person",
    does: "approve proposals",
    body: schema("work", "ApproveRequestSchema"),
    reply: itemsReply,
  }),
  workItem: endpoint({
    method: "GET",
    path: "/v1/work/:ref",
    summary: "One initiative, phase or task, whole.",
    ...READ,
    params: ITEM,
    reply: itemsReply,
  }),
  edit: endpoint({
    method: "PATCH",
    path: "/v1/work/:ref",
    summary: "A proposed phase or task rewritten (title, body, dependencies), validated as a proposal is.",
    rule: "person",
    does: "edit a proposal",
    params: ITEM,
    body: schema("work", "EditRequestSchema"),
    reply: itemsReply,
  }),
  reject: endpoint({
    method: "POST",
    path: "/v1/work/:ref/reject",
    summary: "A proposal → rejected with the reason; `revise` resumes its proposing agent with it.",
    rule: "person",
    does: "reject a proposal",
    params: ITEM,
    body: schema("work", "RejectRequestSchema"),
    reply: itemsReply,
  }),
  pin: endpoint({
    method: "POST",
    path: "/v1/work/:ref/pin",
    summary: "A phase (its tasks) or a task pinned to a host of the pool (`local` or a remote with slots), or unpinned with null: dispatch places it there only. A task already under way stays where it runs.",
    rule: "person",
    does: "pin work to a host",
    params: ITEM,
    body: schema("work", "PinRequestSchema"),
    reply: itemsReply,
  }),
  retry: endpoint({
    method: "POST",
    path: "/v1/tasks/:ref/retry",
    summary: "A blocked or failed task → pending.",
    rule: "person",
    does: "retry a task",
    params: { ref: "a task's id or `<initiative>/<phase>/<slug>`" },
    reply: reply.key(schema("work", "TaskResponseSchema"), "task"),
  }),
} as const;
