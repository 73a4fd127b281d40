import type { Database } from "../runtime/sqlite.ts";
import type { PermissionKind, PermissionRequest, PermissionStatus } from "../protocol/permission.ts";
import { parseJson, type StoreWarnings } from "./entity.ts";
import { z } from "zod";

interface Row {
  seq: number;
  agent_id: string;
  agent_name: string;
  session: number;
  tool_use_id: string;
  kind: PermissionKind;
  tool_name: string;
  input_json: string;
  status: PermissionStatus;
  decided_by: PermissionRequest["decidedBy"];
  rule: string | null;
  reason: string | null;
  updated_input_json: string | null;
  created_at: number;
  decided_at: number | null;
}

/** What the daemon keeps beyond what clients see: the session that asked, and the CLI's tool_use id. */
export interface PermissionRecord extends PermissionRequest {
  session: number;
  toolUseId: string;
}

const Input = z.record(z.string(), z.unknown());

/** `perm_<n>` → n; null for anything else. */
export function permissionSeq(id: string): number | null {
  const m = /^perm_(\d{1,15})$/.exec(id);
  return m ? Number(m[1]) : null;
}

export type NewPermission = Pick<PermissionRecord, "agentId" | "agentName" | "session" | "toolUseId" | "kind" | "toolName" | "input">;

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

  private fromRow(r: Row): PermissionRecord {
    const where = `permission request perm_${r.seq}`;
    return {
      id: `perm_${r.seq}`,
      agentId: r.agent_id,
      agentName: r.agent_name,
      session: r.session,
      toolUseId: r.tool_use_id,
      kind: r.kind,
      toolName: r.tool_name,
      input: parseJson(Input, r.input_json, {}, `${where}'s input`, this.w),
      status: r.status,
      decidedBy: r.decided_by,
      rule: r.rule,
      reason: r.reason,
      updatedInput: r.updated_input_json === null ? null : parseJson(Input.nullable(), r.updated_input_json, null, `${where}'s updated input`, this.w),
      createdAt: r.created_at,
      decidedAt: r.decided_at,
    };
  }

  /** Files the request, or returns the one this agent already filed for that tool_use id (`created` false). */
  insert(p: NewPermission, verdict: PermissionVerdict | null): { record: PermissionRecord; created: boolean } {
    return this.db.transaction(() => {
      const existing = this.db.query("SELECT * FROM permission_requests WHERE agent_id = ? AND tool_use_id = ?").get(p.agentId, p.toolUseId) as Row | null;
      if (existing) return { record: this.fromRow(existing), created: false };
      const now = Date.now();
      const row = this.db
        .query(
          `INSERT INTO permission_requests (agent_id, agent_name, session, tool_use_id, kind, tool_name, input_json, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(p.agentId, p.agentName, p.session, p.toolUseId, p.kind, p.toolName, JSON.stringify(p.input), now) as Row;
      if (!verdict) return { record: this.fromRow(row), created: true };
      return { record: this.decide(row.seq, verdict)!, created: true };
    })();
  }

  get(seq: number): PermissionRecord | null {
    const row = this.db.query("SELECT * FROM permission_requests WHERE seq = ?").get(seq) as Row | null;
    return row ? this.fromRow(row) : null;
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
    const sql = `SELECT * FROM permission_requests${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY seq`;
    return (this.db.query(sql).all(...args) as Row[]).map((r) => this.fromRow(r));
  }

  /** Decides a pending request; null when it is not pending any more (decided twice is refused by the caller). */
  decide(seq: number, v: PermissionVerdict): PermissionRecord | null {
    const row = this.db
      .query(
        `UPDATE permission_requests SET status = ?, decided_by = ?, rule = ?, reason = ?, updated_input_json = ?, decided_at = ?
         WHERE seq = ? AND status = 'pending' RETURNING *`,
      )
      .get(
        v.status,
        v.decidedBy,
        v.status === "cancelled" ? null : v.rule,
        v.status === "denied" ? v.reason : null,
        v.status === "allowed" && v.updatedInput ? JSON.stringify(v.updatedInput) : null,
        Date.now(),
        seq,
      ) as Row | null;
    return row ? this.fromRow(row) : null;
  }

  /** The agent's rules of one effect, in the order they were added. */
  rules(agentId: string, effect: RuleEffect): string[] {
    const rows = this.db.query("SELECT rule FROM agent_permission_rules WHERE agent_id = ? AND effect = ? ORDER BY created_at, rowid").all(agentId, effect) as { rule: string }[];
    return rows.map((r) => r.rule);
  }

  addRules(agentId: string, effect: RuleEffect, rules: readonly string[], source: RuleSource): void {
    const q = this.db.query("INSERT OR IGNORE INTO agent_permission_rules (agent_id, effect, rule, source, created_at) VALUES (?, ?, ?, ?, ?)");
    const now = Date.now();
    this.db.transaction(() => {
      for (const r of rules) q.run(agentId, effect, r, source, now);
    })();
  }
}
