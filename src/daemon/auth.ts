import { TroupeError } from "../errors.ts";
import type { AgentRecord } from "../store/agents.ts";
import type { AgentRepo } from "../store/agents.ts";
import { hashToken } from "../agents/tokens.ts";

/** Who sent a request: an agent proves itself with its token; no token is the person. */
export type Caller = { kind: "user" } | { kind: "agent"; agent: AgentRecord };

export function identify(req: Request, agents: AgentRepo): Caller {
  const header = req.headers.get("authorization");
  if (!header) return { kind: "user" };
  const m = /^Bearer (\S+)$/.exec(header);
  if (!m) throw new TroupeError("unauthorized", "malformed Authorization header");
  const agent = agents.byTokenHash(hashToken(m[1]!));
  if (!agent) throw new TroupeError("unauthorized", "unknown agent token");
  return { kind: "agent", agent };
}
