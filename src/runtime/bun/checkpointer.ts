import { checkpointerOver } from "../portable/checkpointer.ts";

export const startCheckpointer = checkpointerOver(
  { imports: 'import { Database } from "bun:sqlite";', open: "new Database(path)", checkpoint: 'db.query("PRAGMA wal_checkpoint(PASSIVE)").get()' },
  // an idle worker must not keep the daemon alive, nor wake it
  (w) => w.unref(),
);
