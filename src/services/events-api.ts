import type { EventFeed } from "../events/event-feed.ts";
import type { EVENT_ENDPOINTS } from "../protocol/api/events.ts";
import type { HandlersOf } from "./services.ts";

/** The event stream: a replay from where the client left, then live events. */
export function eventsApi(feed: EventFeed): HandlersOf<typeof EVENT_ENDPOINTS> {
  return {
    events: (_caller, { since, output }) => feed.open({ since, output: output === undefined ? null : new Set(output) }),
  };
}
