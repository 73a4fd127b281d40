import { dirname, join } from "node:path";
import { readWorkspaceConfig } from "../workspace-config.ts";
import { composeAgents } from "../agents/compose.ts";
import { AgentFollower } from "../conversations/follow-agents.ts";
import { UncommittedFollower, WorktreeReaper } from "../agents/cleanup/index.ts";
import { ConversationService } from "../conversations/service.ts";
import { EventBus } from "../events/bus.ts";
import { EventFeed } from "../events/event-feed.ts";
import type { Logger } from "../events/log.ts";
import type { Store } from "../store/index.ts";
import type { Workspace } from "../workspace.ts";
import type { Services } from "./services.ts";
import { servicesApi } from "./api.ts";
import { MessageService } from "../messages/service.ts";
import { DeliveryFollower } from "../messages/delivery.ts";
import { ReviewService } from "../reviews/service.ts";
import { PurposefulWaits } from "./waits.ts";
import { WorkService } from "../work/service.ts";
import { Dispatcher } from "../work/dispatch.ts";
import { ModeService } from "../work/modes.ts";
import { DecisionStore } from "../work/decisions.ts";
import { modeWorkOver } from "../work/work-reader.ts";
import { ProfileCatalog } from "../profiles/catalog.ts";
import { FlowService } from "../flows/service.ts";
import { AccountStore } from "../accounts/store.ts";
import { accountPaths } from "../accounts/paths.ts";
import { AccountBroker } from "../accounts/failover.ts";
import { AccountService } from "../accounts/service.ts";
import { AgentEnvStore } from "../agents/files/saved-env.ts";
import { troupeIn } from "../agents/paths.ts";
import { Notifier } from "../notify/notifier.ts";
import { PermissionService, awaitsPermission } from "../permissions/service.ts";
import { LiveInputs } from "../live/live-inputs.ts";
import { EndOfRun, type EndOfRunParts } from "./end-of-run.ts";
import type { Part } from "./parts.ts";
import { HostPool } from "../hosts/pool.ts";
import { Publisher } from "../publish/publisher.ts";
import { readUserConfig } from "../user-config.ts";
import { hostRuns } from "../hosts/host-runs.ts";
import { hostInventory } from "../hosts/inventory.ts";
import { readRemotes } from "../remotes.ts";
import { isLive } from "../protocol/status.ts";

/** This machine's slots in the pool while the workspace config's `dispatch.slots` names none: dispatch's default concurrency. */
const DEFAULT_LOCAL_SLOTS = 4;

export interface ServiceHost {
  ws: Workspace;
  store: Store;
  log: Logger;
  /** Put first on every agent's PATH: the folder holding this troupe. */
  binDir: string;
  /** Stops the daemon (called once the stop request has been answered). */
  stopDaemon: () => void;
}

export interface RunningServices {
  services: Services;
  bus: EventBus;
  /** The work model, for what builds on it inside the daemon (dispatch). */
  work: WorkService;
  /** Mode agents (discuss, plan, refine, detail, execute) and the import of what they write. */
  modes: ModeService;
  /** Scheduled flows: the daemon holds off its idle exit while one is enabled. */
  flows: FlowService;
  /**
   * What runs: the followers, timers and sweeps, and the agents' watchers (which adopt the sessions
   * an earlier daemon left), in the order they start; they stop in reverse (agents keep running).
   */
  parts: readonly Part[];
}

/**
 * Builds the services once per daemon, wired to one bus, each after what it uses. The one cycle
 * (the agent runtime ends runs into steps of services that use it) is the end-of-run sequence's
 * late-bound list (end-of-run.ts).
 */
export function createServices(h: ServiceHost): RunningServices {
  const startedAt = Date.now();
  const bus = new EventBus(h.store.events, h.log);
  const troupe = troupeIn(h.binDir);
  // a line its running session holds unread goes to the agent's own listen or inbox only while its reader has not taken it (live below)
  const takeBack = (agentId: string, session: number, seq: number) => live.takeBack(agentId, session, seq);
  const messages = new MessageService(h.store, bus, () => troupe, takeBack);
  const conversations = new ConversationService(h.store, bus, takeBack);
  const waits = new PurposefulWaits();
  // the user's accounts (shared by every daemon of the user): which one each agent runs on, failover on a spent quota
  const accountStore = new AccountStore(accountPaths());
  const envs = new AgentEnvStore(h.ws.stateDir);
  const broker = new AccountBroker({ store: h.store, bus, log: h.log, accounts: accountStore, loadEnv: (rec) => envs.load(rec.id, rec.name) });
  const ends = new EndOfRun(h.log, () => endParts);
  const live = new LiveInputs({ store: h.store, bus, log: h.log, troupe: () => troupe, listening: (id) => conversations.isListening(id) });
  const agents = composeAgents({
    ws: h.ws,
    store: h.store,
    bus,
    log: h.log,
    binDir: h.binDir,
    mail: messages,
    accounts: broker,
    ends,
    input: live,
    // an agent waiting for the person's permission is not idle, however long the person takes
    waitsOnPurpose: (id) => conversations.waitsOnPurpose(id) || waits.has(id) || awaitsPermission(h.store, id),
  });
  const permissions = new PermissionService({ store: h.store, bus, log: h.log, agents: agents.query });
  const accounts = new AccountService(accountStore, (provider) => agents.retry.wakeBlocked(provider));
  const feed = new EventFeed(h.store.events, bus);
  const follower = new AgentFollower({ store: h.store, bus, log: h.log, conversations, agents: agents.resume });
  const work = new WorkService({ root: h.ws.root, store: h.store, bus, agents: agents.resume });
  const decisions = new DecisionStore(h.ws.stateDir, h.log);
  const modes = new ModeService({ agents: agents.spawn, store: h.store, log: h.log, decisions, work: modeWorkOver(work, h.store) });
  // this daemon as a host of a pool, and the workspace's pool (this machine and the remotes with slots)
  const localHost = () => hostInventory({ running: () => h.store.agents.list().filter((a) => isLive(a.status)).length, accounts: () => accounts.list(), path: process.env.PATH ?? "" });
  const hosts = new HostPool({
    root: h.ws.root,
    localSlots: () => readWorkspaceConfig(h.ws.stateDir).dispatch?.slots ?? DEFAULT_LOCAL_SLOTS,
    local: localHost,
    remotes: () => readRemotes(),
    env: process.env,
  });
  const hostPort = hostRuns(hosts, process.env, dirname(h.ws.socket));
  const dispatcher = new Dispatcher({
    root: h.ws.root,
    stateDir: h.ws.stateDir,
    store: h.store,
    bus,
    log: h.log,
    modes,
    agents: agents.resume,
    taskMinutes: () => readWorkspaceConfig(h.ws.stateDir).dispatch?.taskMinutes,
    pool: { port: hostPort, graceSeconds: () => readWorkspaceConfig(h.ws.stateDir).dispatch?.hostGraceSeconds, timeoutMs: hosts.timeoutMs },
  });
  const delivery = new DeliveryFollower({ store: h.store, bus, log: h.log, messages, agents: agents.resume });
  const reviews = new ReviewService({ store: h.store, log: h.log, agents: agents.query, resumes: agents.resume, messages });
  const profiles = new ProfileCatalog(h.ws.root);
  const flows = new FlowService({ root: h.ws.root, stateDir: h.ws.stateDir, store: h.store, log: h.log, agents: agents.spawn, profiles });
  const uncommitted = new UncommittedFollower({ store: h.store, bus, log: h.log, agents: agents.resume });
  const reaper = new WorktreeReaper({ ws: h.ws, store: h.store, log: h.log });
  const notifier = new Notifier({ bus, log: h.log, root: h.ws.root, sentPath: join(h.ws.stateDir, "notified.json"), nameOf: (id) => h.store.agents.get(id)?.name ?? null });
  const endParts: EndOfRunParts = { modes, conversations: follower, messages: delivery, permissions, uncommitted, reaper, dispatch: dispatcher, bus };
  const publisher = new Publisher({ root: h.ws.root, github: () => readUserConfig().github });
  const services = servicesApi({ ...h, startedAt, bus, waits, agents, conversations, messages, reviews, feed, work, dispatcher, modes, profiles, flows, accounts, permissions, hosts, localHost, publisher });
  return {
    services,
    bus,
    work,
    modes,
    flows,
    parts: [
      // first, and stopped last: what the start finds (a run that ended while no daemon ran) is news
      { name: "notifier", start: () => notifier.start(), stop: () => notifier.shutdown() },
      // the agents stop here, after every follower below: those resume agents, and no resume may start once the agents stop watching (they keep running)
      { name: "agents' stop", stop: () => agents.runtime.shutdown() },
      // the end-of-run sequence's steps before the agents' start, whose ends they follow (their order is the sequence's, end-of-run.ts)
      { name: "mode imports", start: () => modes.startImports(), stop: () => modes.shutdown() },
      { name: "conversation follower", start: () => follower.start(), stop: () => follower.shutdown() },
      { name: "message delivery", start: () => delivery.start(), stop: () => delivery.shutdown() },
      // also cancels the requests of sessions that ended while no daemon ran
      { name: "permissions", start: () => permissions.start(), stop: () => permissions.shutdown() },
      { name: "uncommitted follower", start: () => uncommitted.start(), stop: () => uncommitted.shutdown() },
      // the agent runtime: adopts the sessions an earlier daemon left, publishes the ends it finds, arms the retries left pending
      { name: "agents", start: () => agents.runtime.start() },
      // the streams of the sessions the agent runtime adopted: lines an earlier daemon left
      { name: "live inputs", start: () => live.start(), stop: () => live.shutdown() },
      // after the agents' start: the mode outputs the ends found at start left unimported
      { name: "mode sweep", start: () => modes.sweep() },
      // after the agent runtime settled the sessions it found: deliveries that never ran are queued again
      { name: "delivery sweep", start: () => delivery.sweep() },
      { name: "conversation expiry", start: () => conversations.start(), stop: () => conversations.shutdown() },
      { name: "worktree reaper", start: () => reaper.start(), stop: () => reaper.shutdown() },
      // after the agents' start: a missed run's overlap check sees what is still live
      { name: "flows", start: () => flows.start(), stop: () => flows.shutdown() },
      // the pool's links end after the dispatcher's stop, which waits for the starts it sent over them
      { name: "host links", stop: () => (hosts.close(), hostPort.close()) },
      // last: what the sweep imported and the ends found at start are in the store by now
      { name: "dispatcher", start: () => dispatcher.start(), stop: () => dispatcher.shutdown() },
    ],
  };
}
