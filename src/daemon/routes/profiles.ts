import type { Services } from "../../services/services.ts";
import { json } from "../http.ts";
import type { Router } from "../router.ts";

export function profileRoutes(r: Router, s: Services): void {
  r.on("GET", "/v1/profiles", ({ caller }) => json(s.profiles.list(caller)));
  r.on("GET", "/v1/profiles/:name", ({ params, caller }) => json({ profile: s.profiles.get(caller, params.name!) }));
}
