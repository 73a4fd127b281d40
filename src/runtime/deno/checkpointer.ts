import { checkpointerOver } from "../portable/checkpointer.ts";

export const startCheckpointer = checkpointerOver(
  { imports: 'import { DatabaseSync } from "node:sqlite";', open: "new DatabaseSync(path)", checkpoint: 'db.prepare("PRAGMA wal_checkpoint(PASSIVE)").get()' },
  // Deno's Worker has no unref(): an idle one sleeps (it wakes nothing), and the daemon ends
  // through process.exit, which does not wait for it
  () => {},
);
