import type { Database } from "../runtime/sqlite.ts";
import { EntityColumns, type Covers, type NewOf, type StoreWarnings } from "./entity.ts";
import { AGENT_SESSIONS } from "./tables/agents.ts";

/** One run of an agent's process: where its output goes and how far the daemon has read it. */
export interface SessionRecord {
  agentId: string;
  session: number;
  pid: number | null;
  pidStart: string | null;
  stdoutPath: string;
  stderrPath: string;
  exitPath: string;
  /** Stored this far as of the session row; its agent's newest chunk may say more (ChunkRepo.offsets). */
  stdoutOffset: number;
  stderrOffset: number;
  startedAt: number;
  endedAt: number | null;
  exitCode: number | null;
  /** TROUPE_SESSION_KEY in its processes' environment: how they are found after a setsid. */
  marker: string | null;
  /** When a stop under way SIGKILLs whatever of the agent is left (null: no stop pending). */
  killAt: number | null;
  /** The first signal a stop sent (15): the wrapper died of it when its own exit status is lost. */
  stopSignal: number | null;
  /** The signal the daemon wrote for this session (`troupe signal`), as JSON; null: none yet. */
  signalJson: string | null;
  /** Started before troupe recorded signals (an upgrade): its signal file is read as it was then. */
  signalFromFile: boolean;
}

/** What recording a session's signal found: recorded now, the same one already, another one first, or no open session. */
export type SignalRecord = { kind: "recorded" } | { kind: "same" } | { kind: "taken"; first: string } | { kind: "ended" };

const COLUMNS = new EntityColumns(AGENT_SESSIONS);
// every field has its column
const covered: Covers<typeof AGENT_SESSIONS, SessionRecord> = true;
void covered;
const SELECT = `SELECT ${COLUMNS.select()} FROM agent_sessions`;

/** What starting a session records (AGENT_SESSIONS: `insert`). */
export type NewSession = NewOf<typeof AGENT_SESSIONS, SessionRecord>;

export class SessionRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  insert(s: NewSession): SessionRecord {
    this.db.query(COLUMNS.insertSql()).run(...COLUMNS.insertValues({ ...s, startedAt: Date.now() }));
    return this.get(s.agentId, s.session)!;
  }

  get(agentId: string, session: number): SessionRecord | null {
    const row = this.db.query(`${SELECT} WHERE agent_id = ? AND session = ?`).get(agentId, session) as Record<string, unknown> | null;
    return row && this.read(row);
  }

  private read(row: Record<string, unknown>): SessionRecord {
    COLUMNS.decode(row, `session ${row.session} of agent ${row.agentId}`, this.w);
    return row as unknown as SessionRecord;
  }

  setPid(agentId: string, session: number, pid: number, pidStart: string | null): void {
    this.db.query("UPDATE agent_sessions SET pid = ?, pid_start = ? WHERE agent_id = ? AND session = ?").run(pid, pidStart, agentId, session);
  }

  /** Sessions whose end the daemon has not yet processed. */
  open(): SessionRecord[] {
    return (this.db.query(`${SELECT} WHERE ended_at IS NULL ORDER BY started_at`).all() as Record<string, unknown>[]).map((r) => this.read(r));
  }

  /** True for the one caller that ended it: an end is processed exactly once. */
  end(agentId: string, session: number, exitCode: number | null): boolean {
    const r = this.db
      .query("UPDATE agent_sessions SET ended_at = ?, exit_code = ? WHERE agent_id = ? AND session = ? AND ended_at IS NULL")
      .run(Date.now(), exitCode, agentId, session);
    return r.changes === 1;
  }

  /**
   * Records `json` as the session's signal, once: a second, different one is refused (the first
   * stands), the same one again is no change (a client that lost the answer may send it again).
   * An ended session takes none.
   */
  recordSignal(agentId: string, session: number, json: string): SignalRecord {
    return this.db.transaction((): SignalRecord => {
      const s = this.get(agentId, session);
      if (!s || s.endedAt !== null) return { kind: "ended" };
      if (s.signalJson !== null) return s.signalJson === json ? { kind: "same" } : { kind: "taken", first: s.signalJson };
      this.db.query("UPDATE agent_sessions SET signal_json = ? WHERE agent_id = ? AND session = ?").run(json, agentId, session);
      return { kind: "recorded" };
    })();
  }

  /** Takes back a signal recorded by `recordSignal` whose file could not be written (it never counted). */
  forgetSignal(agentId: string, session: number, json: string): void {
    this.db.query("UPDATE agent_sessions SET signal_json = NULL WHERE agent_id = ? AND session = ? AND signal_json = ? AND ended_at IS NULL").run(agentId, session, json);
  }

  /** Every session of one agent, oldest first. */
  ofAgent(agentId: string): SessionRecord[] {
    return (this.db.query(`${SELECT} WHERE agent_id = ? ORDER BY session`).all(agentId) as Record<string, unknown>[]).map((r) => this.read(r));
  }

  /**
   * Records a stop: the SIGKILL deadline (an earlier one pending is kept, so repeating a stop
   * never postpones the kill) and the first signal sent.
   */
  requestKill(agentId: string, session: number, killAt: number, signal: number): void {
    this.db
      .query("UPDATE agent_sessions SET kill_at = MIN(COALESCE(kill_at, ?), ?), stop_signal = COALESCE(stop_signal, ?) WHERE agent_id = ? AND session = ?")
      .run(killAt, killAt, signal, agentId, session);
  }

  /** Moves (or, with null, clears) every pending SIGKILL deadline of an agent. */
  setKillAt(agentId: string, killAt: number | null): void {
    this.db.query("UPDATE agent_sessions SET kill_at = ? WHERE agent_id = ? AND kill_at IS NOT NULL").run(killAt, agentId);
  }

  /** The nearest pending SIGKILL deadline, if any. */
  nextKillAt(): number | null {
    const r = this.db.query("SELECT MIN(kill_at) AS at FROM agent_sessions WHERE kill_at IS NOT NULL").get() as { at: number | null };
    return r.at;
  }

  /** Agents with a SIGKILL deadline at or before `now`. */
  killDue(now: number): string[] {
    return (this.db.query("SELECT DISTINCT agent_id FROM agent_sessions WHERE kill_at IS NOT NULL AND kill_at <= ?").all(now) as { agent_id: string }[]).map((r) => r.agent_id);
  }
}
