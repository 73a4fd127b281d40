import type { AccountService } from "../accounts/service.ts";
import type { ConversationService } from "../conversations/service.ts";
import type { EventBus } from "../events/bus.ts";
import type { EventFeed } from "../events/event-feed.ts";
import type { FlowService } from "../flows/service.ts";
import type { MessageService } from "../messages/service.ts";
import type { PermissionService } from "../permissions/service.ts";
import type { ProfileCatalog } from "../profiles/catalog.ts";
import type { ReviewService } from "../reviews/service.ts";
import { USER } from "../protocol/entities.ts";
import type { Dispatcher } from "../work/dispatch.ts";
import type { ModeService } from "../work/modes.ts";
import type { WorkService } from "../work/service.ts";
import { accountsApi } from "./accounts-api.ts";
import { agentsApi, type AgentsApiUnits } from "./agents-api.ts";
import { conversationsApi } from "./conversations-api.ts";
import { daemonApi, type DaemonHost } from "./daemon-api.ts";
import { eventsApi } from "./events-api.ts";
import { flowsApi } from "./flows-api.ts";
import { guardOver } from "./guard.ts";
import { messagesApi } from "./messages-api.ts";
import { modesApi } from "./modes-api.ts";
import { permissionsApi } from "./permissions-api.ts";
import { profilesApi } from "./profiles-api.ts";
import { publishApi } from "./publish-api.ts";
import type { Publisher } from "../publish/publisher.ts";
import { reviewsApi } from "./reviews-api.ts";
import type { Handlers, Services } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";
import { workApi } from "./work-api.ts";
import { hostsApi } from "./hosts-api.ts";
import type { HostPool } from "../hosts/pool.ts";
import type { HostInventory } from "../protocol/host.ts";

/** What the API is served from: the daemon's services, built once by createServices. */
export interface ApiDeps extends DaemonHost {
  bus: EventBus;
  waits: PurposefulWaits;
  /** The agents' use cases (src/agents/compose.ts) that the endpoints, the guard and identify call. */
  agents: AgentsApiUnits;
  conversations: ConversationService;
  messages: MessageService;
  reviews: ReviewService;
  feed: EventFeed;
  work: WorkService;
  dispatcher: Dispatcher;
  modes: ModeService;
  profiles: ProfileCatalog;
  flows: FlowService;
  accounts: AccountService;
  permissions: PermissionService;
  hosts: HostPool;
  /** Pushes and pull requests of branches (src/publish/). */
  publisher: Publisher;
  /** This daemon's own inventory as a host. */
  localHost: () => HostInventory;
}

/** The Services API: the guard over the table's rules, and one handler per endpoint. */
export function servicesApi(d: ApiDeps): Services {
  const guard = guardOver((id) => d.store.agents.parentOf(id), {
    agent: (ref) => {
      const rec = d.agents.query.find(ref);
      return { id: rec.id, name: rec.name };
    },
    conversation: (id) => {
      const c = d.conversations.get(id);
      return c.toId === USER ? null : { id: c.toId, name: c.toName };
    },
    permission: (id) => {
      const r = d.permissions.get(id);
      return { id: r.agentId, name: r.agentName };
    },
  });
  const handlers: Handlers = {
    ...daemonApi(d),
    ...agentsApi(d.agents, d.profiles, d.bus, d.waits),
    ...conversationsApi(d.conversations),
    ...messagesApi(d.messages, guard, d.waits),
    ...reviewsApi(d.reviews),
    ...publishApi({ store: d.store, bus: d.bus, publisher: d.publisher, findAgent: (ref) => d.agents.query.find(ref), initiativeId: (ref) => d.work.initiative(ref).id }),
    ...eventsApi(d.feed),
    ...workApi(d.work, d.dispatcher, () => d.hosts.names()),
    ...modesApi(d.modes),
    ...permissionsApi(d.permissions, d.waits),
    ...profilesApi(d.profiles),
    ...flowsApi(d.flows),
    ...accountsApi(d.accounts),
    ...hostsApi(d.hosts, d.localHost, d.store),
  };
  return { identify: (token) => d.agents.query.identify(token), guard, handlers };
}
