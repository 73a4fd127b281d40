import { ROWS } from "../../protocol/api/index.ts";
import type { Services } from "../../services/services.ts";
import { Router } from "../router.ts";
import { serveEndpoint } from "./endpoint.ts";

/**
 * The HTTP adapter over the services: every row of the API table (src/protocol/api/) as a route.
 * Rules belong in the services and the table, not here.
 */
export function buildRouter(s: Services): Router {
  const r = new Router();
  for (const [name, e] of ROWS) r.on(e.method, e.path, serveEndpoint(name, e, s));
  return r;
}
