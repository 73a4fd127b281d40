import type { Health } from "../protocol/api-base.ts";
import type { AskRequest, ResumeRequest, SignalRequest, SpawnRequest } from "../protocol/api.ts";
import type { ApproveRequest, DispatchRequest, EditRequest, InitiativeCreateRequest, RejectRequest, WorkItems } from "../protocol/api-work.ts";
import type { Initiative, PhaseTree, Task } from "../protocol/work.ts";
import type { Agent, Conversation } from "../protocol/entities.ts";
import type { Attachment } from "../protocol/api-agents.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { GcReport } from "../protocol/api-gc.ts";
import type { SendRequest } from "../protocol/api-messages.ts";
import type { Message } from "../protocol/message.ts";
import type { Profile, ProfilesResponse } from "../protocol/profile.ts";
import type { Flow, FlowAddRequest, FlowRunResult } from "../protocol/flow.ts";
import type { Account, AddAccountRequest } from "../protocol/account.ts";
import type { PermissionDecision, PermissionFileRequest, PermissionRequest } from "../protocol/permission.ts";
import { request, type HttpOptions } from "./http.ts";
import { ConversationReply, ListenReply, OkReply } from "./replies.ts";
import type { EventFilter, EventMessage } from "./sse.ts";

const enc = encodeURIComponent;

let jitless = false;

/**
 * For a process that parses a handful of replies and exits (a CLI command): zod's compiled fast
 * path, generated with `new Function` on the first parse of each object schema, costs it more than
 * it saves. Set before any schema loads; nothing is loaded here.
 */
export function preferJitlessParsing(): void {
  jitless = true;
}

/**
 * Protocol schemas load on first use, zod with them (~3 ms, and each schema costs to build): the
 * agents' hot commands use the checks in replies.ts and never load zod.
 */
async function schemas<M>(load: () => Promise<M>): Promise<M> {
  const mod = await load();
  if (jitless) (await import("zod")).z.config({ jitless: true });
  return mod;
}
const baseApi = () => schemas(() => import("../protocol/api-base.ts"));
const agentsApi = () => schemas(() => import("../protocol/api-agents.ts"));
const conversationsApi = () => schemas(() => import("../protocol/api-conversations.ts"));
const workApi = () => schemas(() => import("../protocol/api-work.ts"));
const messagesApi = () => schemas(() => import("../protocol/api-messages.ts"));
const profileApi = () => schemas(() => import("../protocol/profile.ts"));
const flowApi = () => schemas(() => import("../protocol/flow.ts"));
const accountsApi = () => schemas(() => import("../protocol/account.ts"));
const permissionApi = () => schemas(() => import("../protocol/permission.ts"));

/** The typed API of one workspace's daemon; the only way cli/ and ui/ reach it. */
export class TroupeClient {
  constructor(readonly opts: HttpOptions) {}

  async health(): Promise<Health> {
    return request(this.opts, "GET", "/v1/health", (await baseApi()).HealthSchema);
  }
  stopDaemon() {
    return request(this.opts, "POST", "/v1/daemon/stop", OkReply, {});
  }
  async gc(q: { dryRun: boolean }): Promise<GcReport> {
    const { GcResponseSchema } = await schemas(() => import("../protocol/api-gc.ts"));
    return (await request(this.opts, "POST", `/v1/gc${q.dryRun ? "?dry-run" : ""}`, GcResponseSchema, {})).report;
  }

  async profiles(): Promise<ProfilesResponse> {
    return request(this.opts, "GET", "/v1/profiles", (await profileApi()).ProfilesResponseSchema);
  }
  async profile(name: string): Promise<Profile> {
    return (await request(this.opts, "GET", `/v1/profiles/${enc(name)}`, (await profileApi()).ProfileResponseSchema)).profile;
  }

  async flows(): Promise<Flow[]> {
    return (await request(this.opts, "GET", "/v1/flows", (await flowApi()).FlowsResponseSchema)).flows;
  }
  async flow(ref: string): Promise<Flow> {
    return (await request(this.opts, "GET", `/v1/flows/${enc(ref)}`, (await flowApi()).FlowResponseSchema)).flow;
  }
  async addFlow(req: FlowAddRequest): Promise<Flow> {
    return (await request(this.opts, "POST", "/v1/flows", (await flowApi()).FlowResponseSchema, req)).flow;
  }
  async removeFlow(ref: string): Promise<void> {
    await request(this.opts, "DELETE", `/v1/flows/${enc(ref)}`, OkReply);
  }
  async setFlowEnabled(ref: string, enabled: boolean): Promise<Flow> {
    return (await request(this.opts, "POST", `/v1/flows/${enc(ref)}/${enabled ? "enable" : "disable"}`, (await flowApi()).FlowResponseSchema, {})).flow;
  }
  async runFlow(ref: string): Promise<FlowRunResult> {
    return request(this.opts, "POST", `/v1/flows/${enc(ref)}/run`, (await flowApi()).FlowRunResponseSchema, {});
  }

  async accounts(): Promise<Account[]> {
    return (await request(this.opts, "GET", "/v1/accounts", (await accountsApi()).AccountListResponseSchema)).accounts;
  }
  async addAccount(req: AddAccountRequest): Promise<Account> {
    return (await request(this.opts, "POST", "/v1/accounts", (await accountsApi()).AccountResponseSchema, req)).account;
  }
  async removeAccount(ref: string): Promise<Account> {
    return (await request(this.opts, "DELETE", `/v1/accounts/${enc(ref)}`, (await accountsApi()).AccountResponseSchema)).account;
  }

  async resetAccount(ref: string): Promise<Account> {
    return (await request(this.opts, "POST", `/v1/accounts/${enc(ref)}/reset`, (await accountsApi()).AccountResponseSchema, {})).account;
  }

  /** The calling agent's tool call (its permission tool): decided by its rules, or filed for the person. */
  async filePermission(req: PermissionFileRequest): Promise<PermissionRequest> {
    return (await request(this.opts, "POST", "/v1/permissions", (await permissionApi()).PermissionResponseSchema, req)).request;
  }
  async permissions(q: { pending?: boolean } = {}): Promise<PermissionRequest[]> {
    const path = q.pending ? "/v1/permissions?status=pending" : "/v1/permissions";
    return (await request(this.opts, "GET", path, (await permissionApi()).PermissionsResponseSchema)).requests;
  }
  async permission(id: string): Promise<PermissionRequest> {
    return (await request(this.opts, "GET", `/v1/permissions/${enc(id)}`, (await permissionApi()).PermissionResponseSchema)).request;
  }
  /** The request once decided, or as it is after `waitMs` (the daemon holds one request at most a minute). */
  async waitPermission(id: string, waitMs: number, signal?: AbortSignal): Promise<PermissionRequest> {
    return (await request(this.opts, "GET", `/v1/permissions/${enc(id)}/wait?timeout=${waitMs}`, (await permissionApi()).PermissionResponseSchema, undefined, signal)).request;
  }
  /** The person's choice (allow, allow always, deny with a reason). */
  async decidePermission(id: string, decision: PermissionDecision): Promise<PermissionRequest> {
    return (await request(this.opts, "POST", `/v1/permissions/${enc(id)}/decide`, (await permissionApi()).PermissionResponseSchema, decision)).request;
  }

  async listAgents(): Promise<Agent[]> {
    return (await request(this.opts, "GET", "/v1/agents", (await agentsApi()).AgentsResponseSchema)).agents;
  }
  async agent(ref: string): Promise<Agent> {
    return (await request(this.opts, "GET", `/v1/agents/${enc(ref)}`, (await agentsApi()).AgentResponseSchema)).agent;
  }
  async spawn(req: SpawnRequest): Promise<Agent> {
    return (await request(this.opts, "POST", "/v1/agents", (await agentsApi()).AgentResponseSchema, req)).agent;
  }
  async stop(ref: string): Promise<Agent> {
    return (await request(this.opts, "POST", `/v1/agents/${enc(ref)}/stop`, (await agentsApi()).AgentResponseSchema, {})).agent;
  }
  async remove(ref: string, opts: { force?: boolean } = {}): Promise<void> {
    await request(this.opts, "DELETE", `/v1/agents/${enc(ref)}${opts.force ? "?force" : ""}`, OkReply);
  }
  async resume(ref: string, req: ResumeRequest): Promise<Agent> {
    return (await request(this.opts, "POST", `/v1/agents/${enc(ref)}/resume`, (await agentsApi()).AgentResponseSchema, req)).agent;
  }
  /** The person takes the agent over: it is attached, and this says what to run (see client/attach.ts). */
  async attach(ref: string): Promise<Attachment> {
    return (await request(this.opts, "POST", `/v1/agents/${enc(ref)}/attach`, (await agentsApi()).AttachResponseSchema, {})).attachment;
  }
  async attachStarted(ref: string, session: number, pid: number): Promise<Agent> {
    return (await request(this.opts, "POST", `/v1/agents/${enc(ref)}/attach/pid`, (await agentsApi()).AgentResponseSchema, { session, pid })).agent;
  }
  async detach(ref: string, session: number, exitCode: number | null): Promise<Agent> {
    return (await request(this.opts, "POST", `/v1/agents/${enc(ref)}/detach`, (await agentsApi()).AgentResponseSchema, { session, exitCode })).agent;
  }
  /** The agent; with `waitMs`, held until it is no longer live (it ended its run) or the wait ends. */
  async waitAgent(ref: string, waitMs: number, signal?: AbortSignal): Promise<Agent> {
    return (await request(this.opts, "GET", `/v1/agents/${enc(ref)}/wait?wait=${waitMs}`, (await agentsApi()).AgentResponseSchema, undefined, signal)).agent;
  }
  /** Stored output chunks, oldest first: those after chunk id `after`, or the newest before `before`. */
  async output(ref: string, q: { after?: number; before?: number; session?: number; limit?: number } = {}): Promise<OutputChunk[]> {
    const params = new URLSearchParams();
    if (q.after !== undefined) params.set("after", String(q.after));
    if (q.before !== undefined) params.set("before", String(q.before));
    if (q.session !== undefined) params.set("session", String(q.session));
    if (q.limit !== undefined) params.set("limit", String(q.limit));
    const path = `/v1/agents/${enc(ref)}/output?${params}`;
    return (await request(this.opts, "GET", path, (await agentsApi()).OutputResponseSchema)).chunks;
  }

  /** The calling agent's signal: the daemon stores it as this agent's (by its token) and writes its signal file. */
  signal(signal: SignalRequest) {
    return request(this.opts, "POST", "/v1/signal", OkReply, signal);
  }

  async ask(req: AskRequest): Promise<Conversation> {
    return (await request(this.opts, "POST", "/v1/conversations", ConversationReply, req)).conversation;
  }
  /** The conversation; with `waitMs`, held until it is answered or expired, or the wait ends. */
  async conversation(id: string, waitMs?: number, signal?: AbortSignal): Promise<Conversation> {
    const q = waitMs === undefined ? "" : `?wait=${waitMs}`;
    return (await request(this.opts, "GET", `/v1/conversations/${enc(id)}${q}`, ConversationReply, undefined, signal)).conversation;
  }
  async conversations(q: { pending?: boolean } = {}): Promise<Conversation[]> {
    const path = q.pending ? "/v1/conversations?pending=1" : "/v1/conversations";
    return (await request(this.opts, "GET", path, (await conversationsApi()).ConversationsResponseSchema)).conversations;
  }
  async answer(id: string, answer: string): Promise<Conversation> {
    return (await request(this.opts, "POST", `/v1/conversations/${enc(id)}/answer`, ConversationReply, { answer })).conversation;
  }
  /** Claims the oldest pending conversation addressed to the caller, waiting up to `waitMs`. */
  async listen(waitMs: number, signal?: AbortSignal): Promise<Conversation | null> {
    return (await request(this.opts, "GET", `/v1/listen?wait=${waitMs}`, ListenReply, undefined, signal)).conversation;
  }

  /** One message per addressee (`to`: an agent, `user`, `all`, `supervisor`), signed with this client's identity. */
  async send(req: SendRequest): Promise<Message[]> {
    return (await request(this.opts, "POST", "/v1/messages", (await messagesApi()).MessageResponseSchema, req)).messages;
  }
  /**
   * The caller's messages, oldest first: after seq `after` (any status), else those not yet
   * delivered; reading delivers them. With `waitMs`, held until one comes (the daemon caps one wait at 60 s).
   */
  async inbox(opts: { after?: number; waitMs?: number } = {}, signal?: AbortSignal): Promise<Message[]> {
    const params = new URLSearchParams();
    if (opts.after !== undefined) params.set("after", String(opts.after));
    if (opts.waitMs !== undefined) params.set("wait", String(opts.waitMs));
    const q = params.size ? `?${params}` : "";
    return (await request(this.opts, "GET", `/v1/inbox${q}`, (await messagesApi()).InboxResponseSchema, undefined, signal)).messages;
  }
  /** A message to the person, seen (the person only). */
  /** The person's messages not yet read, oldest first; unlike `inbox` it changes no status. */
  async messages(_q: { unread: true }): Promise<Message[]> {
    return (await request(this.opts, "GET", "/v1/messages?to=user&unread", (await messagesApi()).UnreadResponseSchema)).messages;
  }

  async markRead(id: string): Promise<Message> {
    return (await request(this.opts, "POST", `/v1/messages/${enc(id)}/read`, (await messagesApi()).MessageReadResponseSchema, {})).message;
  }

  async createInitiative(req: InitiativeCreateRequest): Promise<Initiative> {
    return (await request(this.opts, "POST", "/v1/initiatives", (await workApi()).InitiativeResponseSchema, req)).initiative;
  }
  async initiatives(): Promise<Initiative[]> {
    return (await request(this.opts, "GET", "/v1/initiatives", (await workApi()).InitiativesResponseSchema)).initiatives;
  }
  /** By id or slug. */
  async initiative(ref: string): Promise<Initiative> {
    return (await request(this.opts, "GET", `/v1/initiatives/${enc(ref)}`, (await workApi()).InitiativeResponseSchema)).initiative;
  }
  async archiveInitiative(ref: string): Promise<Initiative> {
    return (await request(this.opts, "POST", `/v1/initiatives/${enc(ref)}/archive`, (await workApi()).InitiativeResponseSchema, {})).initiative;
  }
  /** A new spend limit over all the initiative's agents (the person only). */
  async setInitiativeBudget(ref: string, budgetUsd: number): Promise<Initiative> {
    return (await request(this.opts, "POST", `/v1/initiatives/${enc(ref)}/budget`, (await workApi()).InitiativeResponseSchema, { budgetUsd })).initiative;
  }
  async phaseTree(ref: string): Promise<PhaseTree> {
    return (await request(this.opts, "GET", `/v1/initiatives/${enc(ref)}/tree`, (await workApi()).PhaseTreeResponseSchema)).tree;
  }
  /** Every phase and task of the initiative, content included. */
  async initiativeWork(ref: string): Promise<WorkItems> {
    return request(this.opts, "GET", `/v1/initiatives/${enc(ref)}/work`, (await workApi()).WorkItemsResponseSchema);
  }
  async initiativeDiff(ref: string): Promise<string> {
    return (await request(this.opts, "GET", `/v1/initiatives/${enc(ref)}/diff`, (await workApi()).DiffResponseSchema)).diff;
  }
  /** One initiative, phase or task (`<initiative>/<slug>` or an id). */
  async workItem(ref: string): Promise<WorkItems> {
    return request(this.opts, "GET", `/v1/work/${enc(ref)}`, (await workApi()).WorkItemsResponseSchema);
  }
  async approve(req: ApproveRequest): Promise<WorkItems> {
    return request(this.opts, "POST", "/v1/approve", (await workApi()).WorkItemsResponseSchema, req);
  }
  async reject(ref: string, req: RejectRequest): Promise<WorkItems> {
    return request(this.opts, "POST", `/v1/work/${enc(ref)}/reject`, (await workApi()).WorkItemsResponseSchema, req);
  }
  async edit(ref: string, req: EditRequest): Promise<WorkItems> {
    return request(this.opts, "PATCH", `/v1/work/${enc(ref)}`, (await workApi()).WorkItemsResponseSchema, req);
  }
  /** The daemon drives the initiative from now on, with `req.env` (the caller's environment) for every run and merge. */
  async dispatch(ref: string, req: DispatchRequest): Promise<Initiative> {
    return (await request(this.opts, "POST", `/v1/initiatives/${enc(ref)}/dispatch`, (await workApi()).InitiativeResponseSchema, req)).initiative;
  }
  async stopDispatch(ref: string): Promise<Initiative> {
    return (await request(this.opts, "DELETE", `/v1/initiatives/${enc(ref)}/dispatch`, (await workApi()).InitiativeResponseSchema)).initiative;
  }
  async retry(ref: string): Promise<Task> {
    return (await request(this.opts, "POST", `/v1/tasks/${enc(ref)}/retry`, (await workApi()).TaskResponseSchema, {})).task;
  }

  async *events(since: number | null, signal?: AbortSignal, filter?: EventFilter): AsyncGenerator<EventMessage> {
    const { subscribe } = await import("./sse.ts");
    yield* subscribe(this.opts, since, signal, filter);
  }
  /** Like events(), but resolves only once the daemon has registered the subscription. */
  async openEvents(since: number | null, signal?: AbortSignal, filter?: EventFilter): Promise<AsyncGenerator<EventMessage>> {
    const { openSubscription } = await import("./sse.ts");
    return openSubscription(this.opts, since, signal, filter);
  }
}
