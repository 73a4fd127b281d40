import type { Database } from "../runtime/sqlite.ts";

/** What a lease asks for: `count` ports between `from` and `to`, inclusive. */
export interface PortRange {
  from: number;
  to: number;
}

/**
 * The ports agents' worktrees hold (src/agents/start/ports.ts). A port is the table's key: one
 * holder at a time, whatever several spawns (or daemons, one after another) do.
 */
export class PortLeaseRepo {
  constructor(private readonly db: Database) {}

  /**
   * The lowest `count` ports of `range` that nobody holds and `skip` does not name, leased to
   * `agentId` as its slots 1..count in one transaction (a concurrent spawn sees them held); null,
   * leasing nothing, when fewer are free.
   */
  take(agentId: string, range: PortRange, count: number, skip: ReadonlySet<number>): number[] | null {
    return this.db.transaction(() => {
      const held = new Set((this.db.query("SELECT port FROM port_leases WHERE port BETWEEN ? AND ?").all(range.from, range.to) as { port: number }[]).map((r) => r.port));
      const ports: number[] = [];
      for (let p = range.from; p <= range.to && ports.length < count; p++) if (!held.has(p) && !skip.has(p)) ports.push(p);
      if (ports.length < count) return null;
      const insert = this.db.query("INSERT INTO port_leases (port, agent_id, slot, leased_at) VALUES (?, ?, ?, ?)");
      const now = Date.now();
      ports.forEach((p, i) => insert.run(p, agentId, i + 1, now));
      return ports;
    })();
  }

  /** The agent's ports, by slot. */
  of(agentId: string): number[] {
    return (this.db.query("SELECT port FROM port_leases WHERE agent_id = ? ORDER BY slot").all(agentId) as { port: number }[]).map((r) => r.port);
  }

  /** How many ports of `range` are held. */
  heldIn(range: PortRange): number {
    return (this.db.query("SELECT COUNT(*) AS n FROM port_leases WHERE port BETWEEN ? AND ?").get(range.from, range.to) as { n: number }).n;
  }

  /** Gives back every port the agent holds (its worktree is gone). */
  release(agentId: string): void {
    this.db.query("DELETE FROM port_leases WHERE agent_id = ?").run(agentId);
  }

  /**
   * Gives back the ports of agents that were never recorded (a daemon killed between a lease and
   * its agent's insert); run at the daemon's start, before any spawn. Their number.
   */
  dropOrphans(): number {
    return this.db.query("DELETE FROM port_leases WHERE agent_id NOT IN (SELECT id FROM agents)").run().changes;
  }
}
