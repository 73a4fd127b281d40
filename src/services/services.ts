import type { Health } from "../protocol/api-base.ts";
import type { Agent, Conversation } from "../protocol/entities.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { Caller } from "../agents/caller.ts";
import type { OutputQuery, ResumeOptions, SpawnOptions } from "../agents/service.ts";
import type { AskOptions } from "../conversations/service.ts";
import type { Feed, FeedQuery } from "../events/event-feed.ts";
import type { Signal } from "../protocol/signal.ts";
import type { Attachment } from "../protocol/api-agents.ts";
import type { WorkItems } from "../protocol/api-work.ts";
import type { Initiative, PhaseTree, Task } from "../protocol/work.ts";
import type { ApproveOptions, EditOptions, InitiativeCreateOptions, RejectOptions } from "../work/service.ts";
import type { GcReport } from "../protocol/api-gc.ts";
import type { DispatchOptions } from "../work/dispatch.ts";
import type { ModesApi } from "./modes-api.ts";
import type { Message } from "../protocol/message.ts";
import type { SendOptions } from "../messages/service.ts";
import type { Profile, ProfilesResponse } from "../protocol/profile.ts";
import type { Flow, FlowRunResult } from "../protocol/flow.ts";
import type { FlowAddOptions } from "../flows/service.ts";
import type { Account } from "../protocol/account.ts";
import type { AddAccount } from "../accounts/service.ts";
import type { PermissionDecision, PermissionFileRequest, PermissionRequest } from "../protocol/permission.ts";

export type { Caller };

/**
 * The daemon's one service API. Every adapter (the HTTP routes in src/daemon/routes/, an MCP
 * server next) resolves its Caller with `identify` and passes it to every method: each method
 * asks `authorize` (src/services/policy.ts, one table) before it acts, so two adapters cannot
 * drift apart on who may do what. Inputs are already validated (zod output types); failures
 * are TroupeErrors with a code (`forbidden` when the table says no), mapped by each adapter.
 */
export interface Services {
  /** The caller an agent token proves; null (no token) is the person. An unknown token is `unauthorized`. */
  identify(token: string | null): Caller;
  daemon: DaemonApi;
  agents: AgentsApi;
  conversations: ConversationsApi;
  events: EventsApi;
  work: WorkApi;
  modes: ModesApi;
  messages: MessagesApi;
  profiles: ProfilesApi;
  flows: FlowsApi;
  accounts: AccountsApi;
  permissions: PermissionsApi;
}

/** Permission requests (src/permissions/): an agent files its own; only the person decides. */
export interface PermissionsApi {
  /** The calling agent's tool call: decided at once by its rules, or filed for the person; the same toolUseId returns the same request. */
  file(caller: Caller, req: PermissionFileRequest): PermissionRequest;
  list(caller: Caller, q: { pending?: boolean }): PermissionRequest[];
  get(caller: Caller, id: string): PermissionRequest;
  /** The request once decided (or cancelled), or as it is after `waitMs` (at most a minute). */
  wait(caller: Caller, id: string, waitMs: number, signal: AbortSignal): Promise<PermissionRequest>;
  /** The person's choice; a request decided, cancelled or whose agent's session ended is a `conflict`. */
  decide(caller: Caller, id: string, decision: PermissionDecision): PermissionRequest;
}

/** Scheduled flows (src/flows/): reading is open, everything else is the person's. */
export interface FlowsApi {
  list(caller: Caller): Flow[];
  get(caller: Caller, ref: string): Flow;
  add(caller: Caller, req: FlowAddOptions): Flow;
  remove(caller: Caller, ref: string): void;
  setEnabled(caller: Caller, ref: string, enabled: boolean): Flow;
  /** Runs it now: the gate, the overlap rule, then one agent; its schedule is unchanged. */
  run(caller: Caller, ref: string): Promise<FlowRunResult>;
}

/** Agent profiles (src/profiles/): read afresh from their files at every call. */
export interface ProfilesApi {
  /** Every usable profile, every broken file with why, and the files a same-named profile shadows. */
  list(caller: Caller): ProfilesResponse;
  /** By name; `not_found`, or `bad_request` with the file, field and reason for a broken one. */
  get(caller: Caller, name: string): Profile;
}

/** The user's provider accounts (src/accounts/): the public view only, never a secret. */
export interface AccountsApi {
  list(caller: Caller): Account[];
  add(caller: Caller, req: AddAccount): Account;
  /** By id or name; `account_not_found` otherwise. */
  remove(caller: Caller, ref: string): Account;
  /** By id or name: no longer spent nor refused (blocked agents of its provider retry at once). */
  reset(caller: Caller, ref: string): Account;
}

export interface DaemonApi {
  health(caller: Caller): Health;
  /** Stops the daemon shortly after returning (agents keep running). */
  stop(caller: Caller): void;
  /** Removes the worktrees the cleanup rule allows (`dryRun`: none), prunes git's stale records, lists orphan branches. */
  gc(caller: Caller, q: { dryRun: boolean }): Promise<GcReport>;
}

export interface AgentsApi {
  list(caller: Caller): Agent[];
  /** By id or name; `agent_not_found` otherwise. */
  get(caller: Caller, ref: string): Agent;
  /** An agent's spawn is its child. */
  spawn(caller: Caller, req: SpawnOptions): Promise<Agent>;
  stop(caller: Caller, ref: string): Agent;
  resume(caller: Caller, ref: string, req: ResumeOptions): Promise<Agent>;
  /** `force`: uncommitted changes in its worktree are saved as a commit first, rather than refused. */
  remove(caller: Caller, ref: string, opts?: { force?: boolean }): Promise<void>;
  output(caller: Caller, ref: string, q: OutputQuery): OutputChunk[];
  /** The agent once it is not live (ended: done, waiting, failed, stopped), or as it is after `waitMs` (at most MAX_WAIT_MS). */
  wait(caller: Caller, ref: string, waitMs: number, signal: AbortSignal): Promise<Agent>;
  /** The person takes the agent's session over: it is `attached`, and the client runs the returned command. */
  attach(caller: Caller, ref: string): Promise<Attachment>;
  /** The attached session's interactive CLI runs as `pid` (the daemon watches it end). */
  attachStarted(caller: Caller, ref: string, session: number, pid: number): Agent;
  /** The attached session's interactive CLI exited: the agent is back in its earlier status. */
  detach(caller: Caller, ref: string, session: number, exitCode: number | null): Promise<Agent>;
  /** Stores the calling agent's signal (by its identity, never by a path it names) in its signal file. */
  signal(caller: Caller, signal: Signal): void;
}

export interface ConversationsApi {
  ask(caller: Caller, req: AskOptions): Conversation;
  list(caller: Caller, q: { pending?: boolean }): Conversation[];
  /** The conversation once answered or expired, or as it is after `waitMs` (at most MAX_WAIT_MS). */
  wait(caller: Caller, id: string, waitMs: number, signal: AbortSignal): Promise<Conversation>;
  answer(caller: Caller, id: string, answer: string): Conversation;
  /** Claims the caller's oldest pending conversation, waiting up to `waitMs`; null when none came. */
  listen(caller: Caller, waitMs: number, signal: AbortSignal): Promise<Conversation | null>;
}

/** Messages (src/messages/): one per addressee, queued until delivered once (inbox or a session's prompt). */
export interface MessagesApi {
  /** `to`: an agent (id or name), `user`, `all` (queued only) or `supervisor` (the caller's parent; the person for an agent the person started). */
  send(caller: Caller, req: SendOptions): Message[];
  /** The caller's messages after `after` (else those queued), oldest first, delivering the queued; `waitMs` (at most MAX_WAIT_MS) holds it until one comes. */
  inbox(caller: Caller, q: { after?: number; waitMs?: number }, signal: AbortSignal): Promise<Message[]>;
  /** The person's messages not yet read, oldest first; read-only (the person only). */
  unread(caller: Caller): Message[];
  /** A message to the person, seen (the person only). */
  markRead(caller: Caller, id: string): Message;
}

export interface EventsApi {
  open(caller: Caller, q: FeedQuery): Feed;
}

/**
 * The work model (src/work/). Refs: an initiative by id or slug; a phase or task by id or
 * `<initiative-slug>/<slug>` (a task also `<initiative>/<phase>/<slug>`); unknown refs are
 * `not_found`, a status that does not allow the change `invalid_state`, a bad edit `bad_request`.
 */
export interface WorkApi {
  /** Resolves the base to a commit and creates `troupe-initiative/<slug>` there (the person only). */
  createInitiative(caller: Caller, req: InitiativeCreateOptions): Promise<Initiative>;
  listInitiatives(caller: Caller): Initiative[];
  initiative(caller: Caller, ref: string): Initiative;
  archive(caller: Caller, ref: string): Initiative;
  /** A new spend limit over all its agents (the person only); dispatch goes on under it. */
  setBudget(caller: Caller, ref: string, budgetUsd: number): Initiative;
  /** Phases in dependency order with their tasks: the `troupe phases --json` shape. */
  tree(caller: Caller, ref: string): PhaseTree;
  /** Every phase and task of the initiative, content included. */
  items(caller: Caller, ref: string): WorkItems;
  /** One initiative, phase or task, whole. */
  item(caller: Caller, ref: string): WorkItems;
  /** The initiative branch against the commit it started from, as a patch. */
  diff(caller: Caller, ref: string): Promise<string>;
  /** Proposed phases → approved, tasks → pending, an initiative id → its proposed goal accepted; all or none. */
  approve(caller: Caller, req: ApproveOptions): WorkItems;
  /** A proposal → rejected with the reason; `revise` resumes its proposing agent with it. */
  reject(caller: Caller, ref: string, req: RejectOptions): Promise<WorkItems>;
  /** A proposed phase or task rewritten (title, body, dependencies), validated as a proposal is. */
  edit(caller: Caller, ref: string, req: EditOptions): WorkItems;
  /** A blocked or failed task → pending. */
  retry(caller: Caller, ref: string): Task;
  /** From now on the daemon drives the initiative, with the caller's environment and git identity (the person only). */
  dispatch(caller: Caller, ref: string, req: DispatchOptions): Promise<Initiative>;
  /** No new runs or merges; agents under way go on. */
  stopDispatch(caller: Caller, ref: string): Initiative;
}
