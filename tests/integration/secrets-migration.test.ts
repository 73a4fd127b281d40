import { afterEach, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrateTo } from "../../src/store/db.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const mode = (path: string) => statSync(path).mode & 0o777;

/** A workspace as troupe at schema 2 left it: environments in `env_json`, files under the user's umask. */
function oldWorkspace(state: string, env: Record<string, string>, removedEnv: Record<string, string>): void {
  mkdirSync(join(state, "logs", "old"), { recursive: true, mode: 0o755 });
  chmodSync(state, 0o755);
  const db = new Database(join(state, "troupe.db"), { create: true });
  db.exec("PRAGMA journal_mode = WAL");
  migrateTo(db, 2);
  const insert = db.query(
    `INSERT INTO agents (id, name, provider, status, command, cwd, permissions, token_hash, signal_file, env_json, session, created_at, updated_at)
     VALUES (?, ?, 'generic', 'done', ?, ?, 'skip', ?, ?, ?, 1, 1, 1)`,
  );
  const command = `troupe signal done --result "\${SECRET_KEY:+has-key}"`;
  insert.run("ag_old", "old", command, sb.dir, "h1", join(state, "agents", "old", "output", "signal.json"), JSON.stringify(env));
  const logs = join(state, "logs", "old");
  db.query(`INSERT INTO agent_sessions (agent_id, session, stdout_path, stderr_path, exit_path, started_at, ended_at, exit_code) VALUES ('ag_old', 1, ?, ?, ?, 1, 2, 0)`)
    .run(join(logs, "1.out"), join(logs, "1.err"), join(logs, "1.exit"));
  // an agent an older troupe removed: its environment lingered in free pages
  insert.run("ag_gone", "gone", command, sb.dir, "h2", join(state, "agents", "gone", "output", "signal.json"), JSON.stringify(removedEnv));
  db.exec("DELETE FROM agents WHERE id = 'ag_gone'");
  db.close();
  for (const f of ["1.out", "1.err"]) writeFileSync(join(logs, f), "", { mode: 0o644 });
  chmodSync(join(state, "troupe.db"), 0o644);
}

function storeBytes(state: string): string {
  const db = join(state, "troupe.db");
  return [db, `${db}-wal`, `${db}-shm`].filter(existsSync).map((p) => readFileSync(p).toString("latin1")).join("\n");
}

test("a store that kept environments moves them to their files once, and the old text is gone from the file", async () => {
  sb = new Sandbox();
  const state = join(sb.dir, ".troupe");
  const secret = `sk-kept-${crypto.randomUUID()}`;
  const removedSecret = `sk-removed-${crypto.randomUUID()}`;
  const parentToken = `tok-${crypto.randomUUID()}`;
  oldWorkspace(state, { SECRET_KEY: secret, TROUPE_AGENT_TOKEN: parentToken, HOME: "/home/x" }, { SECRET_KEY: removedSecret });
  expect(storeBytes(state)).toContain(removedSecret); // the premise: an older troupe's rm left it readable

  await sb.run(["daemon", "start"]);
  const envFile = join(state, "agents", "ag_old", "env.json");
  expect(JSON.parse(readFileSync(envFile, "utf8"))).toEqual({ SECRET_KEY: secret, HOME: "/home/x" });
  expect([mode(envFile), mode(join(envFile, ".."))]).toEqual([0o600, 0o700]);
  const bytes = storeBytes(state);
  for (const s of [secret, removedSecret, parentToken]) expect(bytes).not.toContain(s);

  // the old workspace's files are this user's alone now
  for (const p of ["", "troupe.db", "logs", "logs/old", "logs/old/1.out", "daemon.log"]) {
    expect([p, mode(join(state, p))]).toEqual([p, p.includes(".") ? 0o600 : 0o700]);
  }

  // the moved environment is what a resume without a client runs with
  const res = await fetch("http://troupe/v1/agents/old/resume", { method: "POST", unix: sb.socket, headers: { "content-type": "application/json" }, body: '{"message":"again"}' });
  expect(res.status).toBe(200);
  const done = await waitFor("old resumed", async () => {
    const a = (await sb.json<{ name: string; status: string; session: number; result: string | null }[]>(["ls", "--json"])).find((x) => x.name === "old");
    return a?.status === "done" && a.session === 2 ? a : undefined;
  });
  expect(done.result).toBe("has-key");
});
