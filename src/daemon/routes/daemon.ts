import type { Services } from "../../services/services.ts";
import { json } from "../http.ts";
import type { Router } from "../router.ts";

export function daemonRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/health", ({ caller }) => json(s.daemon.health(caller)));
  r.on("POST", "/v1/daemon/stop", ({ caller }) => {
    s.daemon.stop(caller);
    return json({ ok: true });
  });
  r.on("POST", "/v1/gc", async ({ url, caller }) => json({ report: await s.daemon.gc(caller, { dryRun: url.searchParams.has("dry-run") }) }));
}
