import type { Services } from "../../services/services.ts";
import { json } from "../http.ts";
import type { Router } from "../router.ts";

export function daemonRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/health", () => json(s.daemon.health()));
  r.on("POST", "/v1/daemon/stop", () => {
    s.daemon.stop();
    return json({ ok: true });
  });
}
