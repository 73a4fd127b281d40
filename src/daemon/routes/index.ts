import type { Services } from "../../services/services.ts";
import { Router } from "../router.ts";
import { agentRoutes } from "./agents.ts";
import { conversationRoutes } from "./conversations.ts";
import { daemonRoutes } from "./daemon.ts";
import { eventRoutes } from "./events.ts";
import { workRoutes } from "./work.ts";
import { modeRoutes } from "./modes.ts";
import { messageRoutes } from "./messages.ts";
import { profileRoutes } from "./profiles.ts";
import { flowRoutes } from "./flows.ts";
import { accountRoutes } from "./accounts.ts";
import { permissionRoutes } from "./permissions.ts";

/**
 * The HTTP adapter over the services: each route validates its input (zod), calls one
 * service method and maps the result to JSON. Rules belong in the services, not here.
 */
export function buildRouter(s: Services): Router {
  const r = new Router();
  daemonRoutes(r, s);
  agentRoutes(r, s);
  conversationRoutes(r, s);
  eventRoutes(r, s);
  workRoutes(r, s);
  modeRoutes(r, s);
  messageRoutes(r, s);
  profileRoutes(r, s);
  flowRoutes(r, s);
  accountRoutes(r, s);
  permissionRoutes(r, s);
  return r;
}
