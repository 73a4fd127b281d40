import { endpoint, reply } from "./endpoint.ts";
import { query } from "./query.ts";
import { schema } from "./schemas.ts";

/** The event stream (src/protocol/events.ts): the dashboard, `troupe logs -f`. */
export const EVENT_ENDPOINTS = {
  events: endpoint({
    method: "GET",
    path: "/v1/events",
    summary:
      "Server-sent events: lifecycle events carry their id and replay after `since` (up to 5,000; further behind, one `resync`); output events carry their chunk id. After the replay, an `id:` line with no data names the newest event when the stream opened (where a reader that opens it again replays from). A reader too slow for 1,000 events or 8 MiB gets one `resync`. `troupe logs -f` asks for its agent's output only.",
    rule: "anyone",
    does: "follow events",
    query: { since: query.int("replay lifecycle events after this id"), output: query.list("`none` leaves out output events; agent ids keep only theirs") },
    reply: reply.stream(schema("events", "DaemonEventSchema")),
  }),
} as const;
