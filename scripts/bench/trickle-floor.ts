/**
 * The floor under the tailer, for trickle.ts (compiled like troupe, run beside the daemon on the
 * same folders): one fs.watch per folder, and on a change the file's grown bytes read from an fd
 * kept open (no stat, no open/close), split into lines. With `sqlite`, each line is also inserted
 * into SQLite through troupe's binding (WAL, synchronous=NORMAL; its own transaction, as lines that come 5 ms apart
 * are) with a prepared statement. Nothing else: no events, no offsets, no JSON.
 *
 *   trickle-floor watch|sqlite LIST [DB]   (LIST: a file naming one folder a line; watches FILE in each)
 * Prints the lines it saw when it gets SIGTERM.
 */
import { openSync, readFileSync, readSync, watch, writeSync } from "node:fs";
import { join } from "node:path";
import { openDatabase } from "../../src/runtime/sqlite.ts";

const [mode, list, dbPath] = process.argv.slice(2);
const FILE = "1.out";
const NEWLINE = 0x0a;
const buf = Buffer.allocUnsafe(64 * 1024);

let insert: ((file: number, line: string) => void) | null = null;
if (mode === "sqlite") {
  const db = openDatabase(dbPath!);
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS lines (id INTEGER PRIMARY KEY AUTOINCREMENT, file INTEGER NOT NULL, data TEXT NOT NULL, created_at INTEGER NOT NULL)");
  const stmt = db.query("INSERT INTO lines (file, data, created_at) VALUES (?, ?, ?)");
  insert = (file, line) => void stmt.run(file, line, Date.now());
}

let lines = 0;
for (const [file, dir] of readFileSync(list!, "utf8").split("\n").filter(Boolean).entries()) {
  const fd = openSync(join(dir, FILE), "r");
  let offset = 0;
  // what was there before the floor started is not its work
  for (let n = readSync(fd, buf, 0, buf.length, offset); n > 0; n = readSync(fd, buf, 0, buf.length, offset)) offset += n;
  watch(dir, (_event, name) => {
    if (name !== FILE) return;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, offset);
      if (n <= 0) return;
      const end = buf.lastIndexOf(NEWLINE, n - 1);
      if (end === -1) return; // a partial line: wait for the rest
      let start = 0;
      for (let nl = buf.indexOf(NEWLINE, start); nl !== -1 && nl <= end; nl = buf.indexOf(NEWLINE, start)) {
        lines++;
        insert?.(file, buf.toString("utf8", start, nl + 1));
        start = nl + 1;
      }
      offset += end + 1;
      if (n < buf.length) return;
    }
  });
}

process.on("SIGTERM", () => {
  writeSync(1, `${lines}\n`);
  process.exit(0);
});
