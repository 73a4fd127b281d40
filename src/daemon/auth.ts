import { TroupeError } from "../errors.ts";
import type { Caller } from "../services/services.ts";
import type { Services } from "../services/services.ts";

/** Who sent a request: an agent proves itself with `Authorization: Bearer <token>`; no header is the person. */
export function identify(req: Request, services: Pick<Services, "identify">): Caller {
  const header = req.headers.get("authorization");
  if (!header) return services.identify(null);
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) throw new TroupeError("unauthorized", "malformed Authorization header");
  return services.identify(m[1]!);
}
