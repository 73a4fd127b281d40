import { describe, expect, test } from "bun:test";
import { openDatabase, type Database } from "../../src/runtime/sqlite.ts";
import { mkdtempSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { openStore, schemaVersion, migrate, migrateTo } from "../../src/store/db.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/migrations.ts";
import { TroupeError } from "../../src/errors.ts";
import { schemaSql } from "../../src/store/tables/index.ts";

function schema(db: Database): string[] {
  return (db.query("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { type: string; name: string; sql: string }[]).map(
    (r) => `${r.type} ${r.name}: ${r.sql.replace(/\s+/g, " ")}`,
  );
}

describe("store migrations", () => {
  test("a fresh store is in WAL mode at the current schema version", () => {
    const path = join(mkdtempSync(join(tmpdir(), "troupe-db-")), "t.db");
    const db = openStore(path);
    expect(schemaVersion(db)).toBe(SCHEMA_VERSION);
    expect((db.query("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode).toBe("wal");
    db.close();
  });

  test("a store upgraded one migration at a time ends equal to a fresh one", () => {
    const fresh = openStore(":memory:");
    // a store left at every earlier version by an older troupe, then opened by this one
    for (let stop = 0; stop < SCHEMA_VERSION; stop++) {
      const old = openDatabase(":memory:");
      migrateTo(old, stop);
      migrate(old);
      expect(schemaVersion(old)).toBe(SCHEMA_VERSION);
      expect(schema(old)).toEqual(schema(fresh));
    }
    migrate(fresh); // idempotent
    expect(schemaVersion(fresh)).toBe(SCHEMA_VERSION);
  });

  test("a store from a newer troupe is refused with a clear message", () => {
    const path = join(mkdtempSync(join(tmpdir(), "troupe-db-")), "t.db");
    const db = openDatabase(path);
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    let err: unknown;
    try {
      openStore(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(TroupeError);
    expect((err as TroupeError).code).toBe("store_version");
    expect((err as Error).message).toContain("written by a newer troupe");
  });

  test("each migration has its own name, which says what it brings", () => {
    const names = MIGRATIONS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-z]+(-[a-z]+)*$/);
  });

  test("schema.sql is what the table declarations say (else: npm run docs:schema)", () => {
    expect(SCHEMA_SQL).toBe(schemaSql());
  });

  test("the migrations make of an empty store exactly the schema written out in schema.sql", () => {
    const migrated = openStore(":memory:");
    const written = writtenSchema();
    expect(normalized(migrated)).toEqual(normalized(written));
    expect(pragma(migrated, "auto_vacuum")).toBe(pragma(written, "auto_vacuum"));
    // the comparison sees a difference: a column missing from the written schema fails it
    const short = openDatabase(":memory:");
    short.exec(SCHEMA_SQL.replace("  attached_from TEXT -- 18 attached-from: the status an attached agent returns to\n", "").replace("account_id TEXT, -- 15", "account_id TEXT -- 15"));
    expect(normalized(short)).not.toEqual(normalized(migrated));
  });

  test("a store at every earlier version migrates to the written schema, keeping its rows", () => {
    const written = normalized(writtenSchema());
    for (let stop = 1; stop < SCHEMA_VERSION; stop++) {
      const old = openDatabase(":memory:");
      migrateTo(old, stop);
      // an agent, a session and a line of output as troupe at version 1 wrote them
      old.exec(`INSERT INTO agents (id, name, provider, status, cwd, token_hash, signal_file, created_at, updated_at) VALUES ('ag_1', 'otter', 'generic', 'done', '/', 'h', '/s', 1, 1)`);
      old.exec(`INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at) VALUES ('ag_1', 1, 'o', 'e', 'x', 1)`);
      old.exec(`INSERT INTO agent_log_chunks (agent_id, session, stream, data, created_at) VALUES ('ag_1', 1, 'stdout', 'hello\n', 1)`);
      migrate(old);
      expect({ stop, schema: normalized(old) }).toEqual({ stop, schema: written });
      const agent = old.query("SELECT name, attempt, legacy_env, uncommitted FROM agents").get();
      // rows from before migration 6 kept their environment in the store: marked to move it out
      expect({ stop, agent }).toEqual({ stop, agent: { name: "otter", attempt: 1, legacy_env: stop < 6 ? 1 : 0, uncommitted: 0 } });
      // before migration 3 the totals are summed from the stored output; after, the chunk repo keeps them
      const total = old.query("SELECT appended_bytes FROM agent_output WHERE agent_id = 'ag_1'").get() as { appended_bytes: number } | null;
      expect({ stop, total: total?.appended_bytes ?? null }).toEqual({ stop, total: stop < 3 ? 6 : null });
      expect(old.query("SELECT count(*) AS n FROM agent_log_chunks").get()).toEqual({ n: 1 });
      old.close();
    }
  });
});

const SCHEMA_SQL = readFileSync(join(import.meta.dir, "../../src/store/schema.sql"), "utf8");

function writtenSchema(): Database {
  const db = openDatabase(":memory:");
  db.exec(SCHEMA_SQL);
  return db;
}

const pragma = (db: Database, name: string) => Object.values(db.query(`PRAGMA ${name}`).get() as Record<string, number>)[0];

/** sqlite_master without SQLite's own tables, each statement without comments and with one way of spacing. */
function normalized(db: Database): string[] {
  const rows = db.query("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name").all() as { type: string; name: string; tbl_name: string; sql: string }[];
  return rows.map((r) => {
    const sql = r.sql
      .replace(/--[^\n]*/g, "")
      .replace(/\s+/g, " ")
      .replace(/\s*([(),])\s*/g, "$1")
      .trim();
    return `${r.type} ${r.name} on ${r.tbl_name}: ${sql}`;
  });
}
