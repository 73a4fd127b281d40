import { openDatabase, type Database } from "../runtime/sqlite.ts";
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { TroupeError } from "../errors.ts";
import { MIGRATIONS, SCHEMA_VERSION } from "./migrations.ts";

/** Opens (creating if needed) the workspace store in WAL mode and brings its schema up to date. */
export function openStore(path: string): Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const db = openDatabase(path);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("PRAGMA foreign_keys = ON");
  db.exec("PRAGMA busy_timeout = 5000");
  // a WAL that grew during a flood (checkpoints run beside the writer) is cut back when it starts over
  db.exec("PRAGMA journal_size_limit = 67108864");
  migrate(db);
  return db;
}

export function schemaVersion(db: Database): number {
  return (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
}

export function migrate(db: Database): void {
  const current = schemaVersion(db);
  if (current > SCHEMA_VERSION) {
    throw new TroupeError(
      "store_version",
      `the store was written by a newer troupe (schema ${current}, this troupe knows ${SCHEMA_VERSION}); upgrade troupe`,
    );
  }
  migrateTo(db, SCHEMA_VERSION);
}

/** Runs the migrations from the store's version up to `version` (tests build an older troupe's store this way). */
export function migrateTo(db: Database, version: number): void {
  for (let v = schemaVersion(db); v < version; v++) {
    const m = MIGRATIONS[v]!;
    if ("outsideTransaction" in m) db.exec(m.outsideTransaction);
    db.transaction(() => {
      if ("sql" in m) db.exec(m.sql);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    })();
  }
}
