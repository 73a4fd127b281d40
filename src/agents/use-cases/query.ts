import { agentDiff } from "../../git/agent-diff.ts";
import { TroupeError } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { OutputChunk } from "../../protocol/output.ts";
import type { DiffLine } from "../../protocol/review.ts";
import type { AgentRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import type { Caller } from "../caller.ts";
import type { AgentDeps } from "../deps.ts";
import { findAgent } from "../find-agent.ts";
import { troupeIn } from "../paths.ts";
import { rulesOf } from "../permission-layers.ts";
import { hashToken } from "../tokens.ts";

/** A page of stored output: after a chunk id (oldest first), or the newest before one. */
interface OutputQuery {
  after?: number;
  before?: number;
  session?: number;
  limit?: number;
}

/** What is asked of agents without changing them: who calls, which agents, their output, diff and rules. */
export class AgentQueries {
  constructor(private readonly d: Pick<AgentDeps, "ws" | "store" | "binDir">) {}

  /** The caller a token proves (an agent's, per session); no token is the person. */
  identify(token: string | null): Caller {
    if (token === null) return { kind: "user" };
    const agent = this.d.store.agents.byTokenHash(hashToken(token));
    if (!agent) throw new TroupeError("unauthorized", "unknown agent token");
    return { kind: "agent", agent };
  }

  list(): Agent[] {
    return this.d.store.agents.list().map(toAgent);
  }

  /** By id or by name. */
  get(ref: string): Agent {
    return toAgent(this.find(ref));
  }

  /** The record by id or name (what authorization looks at); `agent_not_found` otherwise. */
  find(ref: string): AgentRecord {
    return findAgent(this.d.store, ref);
  }

  /** Its work as lines of a diff, each with its file and numbers (src/git/agent-diff.ts). */
  diff(ref: string): Promise<DiffLine[]> {
    return agentDiff(this.get(ref), this.d.ws.root);
  }

  /** A page of the agent's stored output; an empty page is the end. */
  output(ref: string, q: OutputQuery): OutputChunk[] {
    const rec = this.find(ref);
    if (q.after !== undefined && q.before !== undefined) throw new TroupeError("bad_request", "give after or before, not both");
    return this.d.store.chunks.list(rec.id, q);
  }

  /** The agent's rules now: its own (spawn, "allow always") and the configs' as they are read today. */
  rulesOf(rec: AgentRecord): { allowedTools: string[]; deniedTools: string[] } {
    return rulesOf(this.d, rec);
  }

  /** This troupe by absolute path, for what names it to an agent (a login shell may drop it from PATH). */
  troupeCommand(): string {
    return troupeIn(this.d.binDir);
  }
}
