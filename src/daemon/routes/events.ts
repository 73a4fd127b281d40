import type { Services } from "../../services/services.ts";
import { intParam } from "../http.ts";
import type { Router } from "../router.ts";
import { sseStream } from "../sse.ts";

export function eventRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/events", ({ url, caller }) => {
    // ?output=none drops output events, ?output=ID,ID keeps those agents' only
    const output = url.searchParams.get("output");
    const feed = s.events.open(caller, {
      since: intParam(url, "since"),
      output: output === null ? null : new Set(output === "none" ? [] : output.split(",")),
    });
    return new Response(sseStream(feed.backlog, feed.subscribe), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
    });
  });
}
