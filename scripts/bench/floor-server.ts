/**
 * The round trip's floors, run by the runtime under test (floor.ts starts it with Bun or Deno,
 * as the binary measured runs): nothing of troupe's request path, only that runtime's server
 * (through troupe's adapter, src/runtime/serve.ts) and SQLite binding.
 *
 *   floor-server.ts bare SOCKET       answers every request at once with a small JSON body
 *   floor-server.ts store SOCKET DB   does what an ask → answer exchange must write, with the
 *     store's settings (WAL, synchronous=NORMAL, the conversations table and its indexes, an event
 *     row per change), each write its own commit, and a waiting GET woken from memory
 */
import { serveUnix } from "../../src/runtime/serve.ts";
import { openDatabase } from "../../src/runtime/sqlite.ts";

const [mode, socket, dbPath] = process.argv.slice(2);
if (!socket || (mode !== "bare" && mode !== "store") || (mode === "store" && !dbPath)) {
  process.stderr.write("usage: floor-server.ts bare SOCKET | store SOCKET DB\n");
  process.exit(2);
}

function storing(path: string): (req: Request) => Promise<Response> {
  const db = openDatabase(path);
  for (const p of ["journal_mode = WAL", "synchronous = NORMAL", "secure_delete = ON"]) db.exec(`PRAGMA ${p}`);
  db.exec(`CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, from_id TEXT NOT NULL, from_name TEXT NOT NULL, to_id TEXT NOT NULL,
  to_name TEXT NOT NULL, question TEXT NOT NULL, answer TEXT, answered_by TEXT, status TEXT NOT NULL, task_id TEXT, phase_id TEXT,
  created_at INTEGER NOT NULL, expires_at INTEGER, answered_at INTEGER, lease_session INTEGER);
CREATE INDEX IF NOT EXISTS conversations_to ON conversations(to_id, status, created_at);
CREATE INDEX IF NOT EXISTS conversations_expiry ON conversations(status, expires_at);
CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, payload TEXT NOT NULL, created_at INTEGER NOT NULL);`);
  const ins = db.query("INSERT INTO conversations (id, from_id, from_name, to_id, to_name, question, status, created_at) VALUES (?, 'user', 'user', 'user', 'user', ?, 'pending', ?) RETURNING *");
  const ans = db.query("UPDATE conversations SET status = 'answered', answer = ?, answered_by = 'user', answered_at = ? WHERE id = ? AND status IN ('pending', 'delivered') RETURNING *");
  const get = db.query("SELECT * FROM conversations WHERE id = ?");
  const ev = db.query("INSERT INTO events (type, payload, created_at) VALUES (?, ?, ?) RETURNING id");
  const waiting = new Map<string, ((c: unknown) => void)[]>();
  let n = 0;
  return async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/v1/conversations") {
      const body = (await req.json()) as { question: string };
      const c = ins.get(`cv_${++n}_${process.pid}`, body.question, Date.now());
      ev.get("conversation:created", JSON.stringify({ type: "conversation:created", conversation: c }), Date.now());
      return Response.json({ conversation: c }, { status: 201 });
    }
    const id = path.split("/")[3];
    if (req.method === "POST") {
      const body = (await req.json()) as { answer: string };
      const c = ans.get(body.answer, Date.now(), id ?? "");
      ev.get("conversation:updated", JSON.stringify({ type: "conversation:updated", conversation: c }), Date.now());
      for (const w of waiting.get(id ?? "") ?? []) w(c);
      waiting.delete(id ?? "");
      return Response.json({ conversation: c });
    }
    if (!id) return Response.json({});
    const c = get.get(id) as { status: string } | null;
    if (c?.status === "answered") return Response.json({ conversation: c });
    const answered = await new Promise((resolve) => waiting.set(id, [...(waiting.get(id) ?? []), resolve]));
    return Response.json({ conversation: answered });
  };
}

const bare = async (req: Request) => {
  if (req.method === "POST") await req.text();
  return Response.json({ conversation: { id: "cv_1", answer: "a" } });
};

serveUnix({ socket, fetch: mode === "bare" ? bare : storing(dbPath!), error: (err) => new Response(String(err), { status: 500 }) });
