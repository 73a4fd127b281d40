import { TroupeError } from "../errors.ts";
import type { Caller } from "../services/services.ts";
import type { Services } from "../services/services.ts";

/**
 * Who sent a request: an agent proves itself with `Authorization: Bearer <token>`; no header is
 * the person, on the person's socket only. On the agents' socket (`agents`: the one a sandbox
 * lets in) a request without a token is refused: dropping the header never makes an agent the person.
 */
export function identify(req: Request, services: Pick<Services, "identify">, agents = false): Caller {
  const header = req.headers.get("authorization");
  if (!header && agents) throw new TroupeError("unauthorized", "this is the agents' socket: a request needs the agent's token (TROUPE_AGENT_TOKEN)");
  if (!header) return services.identify(null);
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) throw new TroupeError("unauthorized", "malformed Authorization header");
  return services.identify(m[1]!);
}
