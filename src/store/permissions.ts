import type { Database } from "../runtime/sqlite.ts";
import type { PermissionRequest } from "../protocol/permission.ts";
import { EntityColumns, type Covers, type NewOf, type StoreWarnings } from "./entity.ts";
import { AGENT_PERMISSION_RULES, PERMISSION_REQUESTS } from "./tables/permissions.ts";

/** What the daemon keeps beyond what clients see: the session that asked, and the CLI's tool_use id. */
export interface PermissionRecord extends PermissionRequest {
  session: number;
  toolUseId: string;
}

const COLUMNS = new EntityColumns(PERMISSION_REQUESTS);
// every field of a request has its column but its id, made of its seq
const covered: Covers<typeof PERMISSION_REQUESTS, PermissionRecord, "id"> = true;
void covered;
const SELECT = `SELECT 'perm_' || seq AS id, ${COLUMNS.select()} FROM permission_requests`;

/** One of an agent's own rules, as its row holds it. */
interface RuleRecord {
  agentId: string;
  effect: RuleEffect;
  rule: string;
  source: RuleSource;
  createdAt: number;
}
const RULE_COLUMNS = new EntityColumns(AGENT_PERMISSION_RULES);
const rulesCovered: Covers<typeof AGENT_PERMISSION_RULES, RuleRecord> = true;
void rulesCovered;

/** `perm_<n>` → n; null for anything else. */
export function permissionSeq(id: string): number | null {
  const m = /^perm_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

/** What an insert takes (PERMISSION_REQUESTS: `insert`); a request starts pending. */
export type NewPermission = NewOf<typeof PERMISSION_REQUESTS, PermissionRecord>;

export type PermissionVerdict =
  | { status: "allowed"; decidedBy: "person" | "rule"; rule: string | null; updatedInput: Record<string, unknown> | null }
  | { status: "denied"; decidedBy: "person" | "rule"; rule: string | null; reason: string }
  | { status: "cancelled"; decidedBy: "ended" };

export type RuleEffect = "allow" | "deny";
/** Where an agent's rule came from: its spawn's layers (flags, profile, initiative), or "allow always". */
export type RuleSource = "spawn" | "always";

/**
 * Permission requests, one row per tool call (unique per agent and tool_use id), and each agent's
 * own rules. A request is decided at most once: `decide` changes only a pending row.
 */
export class PermissionRepo {
  constructor(
    private readonly db: Database,
    private readonly w: StoreWarnings,
  ) {}

  private read(row: Record<string, unknown> | null): PermissionRecord | null {
    if (!row) return null;
    COLUMNS.decode(row, `permission request ${row.id}`, this.w);
    return row as unknown as PermissionRecord;
  }

  /** Files the request, or returns the one this agent already filed for that tool_use id (`created` false). */
  insert(p: NewPermission, verdict: PermissionVerdict | null): { record: PermissionRecord; created: boolean } {
    return this.db.transaction(() => {
      const existing = this.read(this.db.query(`${SELECT} WHERE agent_id = ? AND tool_use_id = ?`).get(p.agentId, p.toolUseId) as Record<string, unknown> | null);
      if (existing) return { record: existing, created: false };
      const { seq } = this.db.query(`${COLUMNS.insertSql()} RETURNING seq`).get(...COLUMNS.insertValues({ ...p, createdAt: Date.now() })) as { seq: number };
      return { record: verdict ? this.decide(seq, verdict)! : this.get(seq)!, created: true };
    })();
  }

  get(seq: number): PermissionRecord | null {
    return this.read(this.db.query(`${SELECT} WHERE seq = ?`).get(seq) as Record<string, unknown> | null);
  }

  /** Oldest first; `pending` only those waiting for the person. */
  list(q: { pending?: boolean; agentId?: string } = {}): PermissionRecord[] {
    const where: string[] = [];
    const args: string[] = [];
    if (q.pending) where.push("status = 'pending'");
    if (q.agentId) {
      where.push("agent_id = ?");
      args.push(q.agentId);
    }
    const sql = `${SELECT}${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY seq`;
    return (this.db.query(sql).all(...args) as Record<string, unknown>[]).map((r) => this.read(r)!);
  }

  /** Decides a pending request; null when it is not pending any more (decided twice is refused by the caller). */
  decide(seq: number, v: PermissionVerdict): PermissionRecord | null {
    const row = this.db
      .query(
        `UPDATE permission_requests SET status = ?, decided_by = ?, rule = ?, reason = ?, updated_input_json = ?, decided_at = ?
         WHERE seq = ? AND status = 'pending' RETURNING 'perm_' || seq AS id, ${COLUMNS.select()}`,
      )
      .get(
        v.status,
        v.decidedBy,
        v.status === "cancelled" ? null : v.rule,
        v.status === "denied" ? v.reason : null,
        v.status === "allowed" && v.updatedInput ? JSON.stringify(v.updatedInput) : null,
        Date.now(),
        seq,
      ) as Record<string, unknown> | null;
    return this.read(row);
  }

  /** The agent's rules of one effect, in the order they were added. */
  rules(agentId: string, effect: RuleEffect): string[] {
    const rows = this.db.query("SELECT rule FROM agent_permission_rules WHERE agent_id = ? AND effect = ? ORDER BY created_at, rowid").all(agentId, effect) as { rule: string }[];
    return rows.map((r) => r.rule);
  }

  addRules(agentId: string, effect: RuleEffect, rules: readonly string[], source: RuleSource): void {
    const q = this.db.query(RULE_COLUMNS.insertSql("IGNORE"));
    const createdAt = Date.now();
    this.db.transaction(() => {
      for (const rule of rules) q.run(...RULE_COLUMNS.insertValues({ agentId, effect, rule, source, createdAt } satisfies RuleRecord));
    })();
  }
}
