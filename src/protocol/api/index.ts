import { ACCOUNT_ENDPOINTS } from "./accounts.ts";
import { AGENT_ENDPOINTS } from "./agents.ts";
import { CONVERSATION_ENDPOINTS } from "./conversations.ts";
import { DAEMON_ENDPOINTS } from "./daemon.ts";
import type { Endpoint } from "./endpoint.ts";
import { EVENT_ENDPOINTS } from "./events.ts";
import { FLOW_ENDPOINTS } from "./flows.ts";
import { HOST_ENDPOINTS } from "./hosts.ts";
import { MESSAGE_ENDPOINTS } from "./messages.ts";
import { MODE_ENDPOINTS } from "./modes.ts";
import { PERMISSION_ENDPOINTS } from "./permissions.ts";
import { PROFILE_ENDPOINTS } from "./profiles.ts";
import { PUBLISH_ENDPOINTS } from "./publish.ts";
import { REVIEW_ENDPOINTS } from "./reviews.ts";
import { WORK_ENDPOINTS } from "./work.ts";

export * from "./endpoint.ts";
export { loadSchema, type SchemaRef } from "./schemas.ts";

/**
 * The daemon's API, one resource a file, in the order docs/api.md lists them. Each key names an
 * endpoint: the typed client's method (src/client/client.ts) and the service handler of that name
 * (src/services/<resource>-api.ts, gathered in src/services/api.ts); the router
 * (src/daemon/routes/) serves each row.
 */
export const RESOURCES = {
  daemon: DAEMON_ENDPOINTS,
  agents: AGENT_ENDPOINTS,
  conversations: CONVERSATION_ENDPOINTS,
  messages: MESSAGE_ENDPOINTS,
  reviews: REVIEW_ENDPOINTS,
  publish: PUBLISH_ENDPOINTS,
  events: EVENT_ENDPOINTS,
  initiatives: WORK_ENDPOINTS,
  modes: MODE_ENDPOINTS,
  permissions: PERMISSION_ENDPOINTS,
  profiles: PROFILE_ENDPOINTS,
  flows: FLOW_ENDPOINTS,
  accounts: ACCOUNT_ENDPOINTS,
  hosts: HOST_ENDPOINTS,
} as const;

export const ENDPOINTS = {
  ...DAEMON_ENDPOINTS,
  ...AGENT_ENDPOINTS,
  ...CONVERSATION_ENDPOINTS,
  ...MESSAGE_ENDPOINTS,
  ...REVIEW_ENDPOINTS,
  ...PUBLISH_ENDPOINTS,
  ...EVENT_ENDPOINTS,
  ...WORK_ENDPOINTS,
  ...MODE_ENDPOINTS,
  ...PERMISSION_ENDPOINTS,
  ...PROFILE_ENDPOINTS,
  ...FLOW_ENDPOINTS,
  ...ACCOUNT_ENDPOINTS,
  ...HOST_ENDPOINTS,
} as const;

export type Endpoints = typeof ENDPOINTS;

/**
 * The API's version: what a client and a daemon of different builds must agree on to talk (a
 * remote of another build that speaks the same API works; `GET /v1/health` and the proxy's
 * greeting carry it). Raise it with any change an older client or daemon cannot take: a route
 * removed or renamed, a field made required, a reply reshaped. Adding a route or an optional
 * field does not raise it.
 */
export const API_VERSION = 1;
export type EndpointName = keyof Endpoints;

/** The table as `[name, endpoint]` rows. */
export const ROWS = Object.entries(ENDPOINTS) as [EndpointName, Endpoint][];
