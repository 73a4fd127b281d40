import { describe, expect, test } from "bun:test";
import { openDatabase, type Database } from "../../src/runtime/sqlite.ts";
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { openStore, schemaVersion, migrate } from "../../src/store/db.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/store/migrations.ts";
import { TroupeError } from "../../src/errors.ts";

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
      for (let v = 0; v < stop; v++) {
        const m = MIGRATIONS[v]!;
        old.exec(typeof m === "string" ? m : m.outsideTransaction);
        old.exec(`PRAGMA user_version = ${v + 1}`);
      }
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
});
