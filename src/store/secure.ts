import type { Database } from "../runtime/sqlite.ts";

/**
 * Deleted rows (a removed agent's prompt and output) are overwritten with zeros, not left in free
 * pages for anyone who reads the file. Per connection: set on every open.
 */
export function secureDelete(db: Database): void {
  db.exec("PRAGMA secure_delete = ON");
}

/**
 * Rewrites the whole file (VACUUM) and empties the WAL, so that text written before
 * secure_delete was on, such as the environments an older troupe kept here, cannot be read back
 * from free pages or old WAL frames. Takes as long as copying the store: for one-time steps only.
 */
export function scrubFreeSpace(db: Database): void {
  db.exec("VACUUM");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
}
