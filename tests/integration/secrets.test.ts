import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

type Row = { id: string; name: string; status: string; result: string | null; error: string | null; session: number };

async function agent(name: string): Promise<Row | undefined> {
  return (await sb.json<Row[]>(["ls", "--json"])).find((a) => a.name === name);
}

function untilDone(name: string, session: number): Promise<Row> {
  return waitFor(`${name} done (session ${session})`, async () => {
    const a = await agent(name);
    return a?.status === "done" && a.session === session ? a : undefined;
  });
}

async function api(method: string, path: string, body?: unknown): Promise<{ status: number; json: { error?: { message: string } } }> {
  const res = await fetch(`http://troupe${path}`, { method, unix: sb.socket, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as { error?: { message: string } } };
}

/** Every byte of the store as it lies on disk: the database, its WAL and shared memory. */
function storeBytes(): string {
  const db = join(sb.dir, ".troupe", "troupe.db");
  return [db, `${db}-wal`, `${db}-shm`].filter(existsSync).map((p) => readFileSync(p).toString("latin1")).join("\n");
}

const mode = (path: string) => statSync(path).mode & 0o777;

test("an agent's environment lives in its own 0600 file, without troupe's variables, never in the store, and goes with rm", async () => {
  sb = new Sandbox();
  const secret = `sk-planted-${crypto.randomUUID()}`;
  // in the workspace, which the person's agent without a worktree may write (its sandbox has a /tmp of its own)
  const tokenFile = join(sb.dir, ".parent-token");
  // an agent spawns another: its own environment (its token among it) is the child's client env
  const child = `troupe signal done --result "\${SECRET_KEY:+has-key}|\${TROUPE_PARENT_LEAK:-none}"`;
  const parent = `printf %s "$TROUPE_AGENT_TOKEN" > ${tokenFile} && TROUPE_PARENT_LEAK=1 troupe spawn --no-worktree --name kid --command '${child}' --json >/dev/null && troupe signal done --result spawned`;
  await sb.json(["spawn", "--no-worktree", "--name", "mom", "--command", parent, "--json"], { env: { SECRET_KEY: secret } });
  const kid = await waitFor("kid spawned", () => agent("kid"));
  await untilDone("mom", 1);
  expect((await untilDone("kid", 1)).result).toBe("has-key|none");
  const parentToken = readFileSync(tokenFile, "utf8");
  expect(parentToken.length).toBeGreaterThan(16);

  const envFile = join(sb.dir, ".troupe", "agents", kid.id, "env.json");
  const saved = JSON.parse(readFileSync(envFile, "utf8")) as Record<string, string>;
  expect(saved.SECRET_KEY).toBe(secret);
  expect(Object.keys(saved).filter((k) => k.startsWith("TROUPE_"))).toEqual([]);
  expect(readFileSync(envFile, "utf8")).not.toContain(parentToken);
  expect([mode(envFile), mode(join(envFile, ".."))]).toEqual([0o600, 0o700]);
  expect(storeBytes()).not.toContain(secret);
  expect(storeBytes()).not.toContain(parentToken);

  // a resume started without a client (as a question to a done agent does) runs with the saved environment
  expect((await api("POST", "/v1/agents/kid/resume", { message: "again" })).status).toBe(200);
  expect((await untilDone("kid", 2)).result).toBe("has-key|none");

  expect((await sb.run(["rm", "kid"])).code).toBe(0);
  expect(existsSync(join(sb.dir, ".troupe", "agents", kid.id))).toBe(false);
  expect(storeBytes()).not.toContain(secret);
});

test("a resume without a client whose saved environment is gone fails clearly and leaves the agent as it was", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "lone", "--command", "troupe signal done --result ok", "--json"], { env: { SECRET_KEY: "x" } });
  const a = await untilDone("lone", 1);
  const envFile = join(sb.dir, ".troupe", "agents", a.id, "env.json");
  Bun.spawnSync(["rm", envFile]);
  const r = await api("POST", "/v1/agents/lone/resume", { message: "again" });
  expect(r.status).toBe(409);
  expect(r.json.error?.message).toBe(`lone's saved environment ${envFile} is missing; 'troupe resume lone' from a shell gives it yours`);
  expect(await agent("lone")).toMatchObject({ status: "done", session: 1, result: "ok" });
  // a resume from a shell brings its environment, and saves it again
  expect((await sb.run(["resume", "lone", "--message", "again"], { env: { SECRET_KEY: "y" } })).code).toBe(0);
  await untilDone("lone", 2);
  expect(JSON.parse(readFileSync(envFile, "utf8")).SECRET_KEY).toBe("y");
});

/** Everything troupe keeps under .troupe/ (a worktree's checked-out content is the repository's). */
function walk(root: string, dir = root, out: { path: string; dir: boolean; mode: number }[] = []) {
  for (const entry of new Bun.Glob("*").scanSync({ cwd: dir, onlyFiles: false, dot: true })) {
    const path = join(dir, entry);
    if (join(dir, "..") === join(root, "worktrees") && entry !== ".troupe") continue;
    const st = statSync(path);
    out.push({ path: path.slice(root.length + 1), dir: st.isDirectory(), mode: st.mode & 0o777 });
    if (st.isDirectory()) walk(root, path, out);
  }
  return out;
}

test("every folder under .troupe/ is 0700 and every file 0600; what an agent makes in its worktree keeps the user's umask", async () => {
  sb = new Sandbox();
  // committed: an agent that ends done with uncommitted changes is resumed to commit them
  const cmd = `touch made-by-agent && git add made-by-agent && (git diff --cached --quiet || git commit -qm made) && troupe signal done --result ok`;
  await sb.json(["spawn", "--name", "tree", "--command", cmd, "--json"]);
  await sb.json(["spawn", "--no-worktree", "--name", "flat", "--command", "troupe signal done --result ok", "--json"]);
  await untilDone("tree", 1);
  await untilDone("flat", 1);
  expect((await sb.run(["resume", "tree", "--message", "again"])).code).toBe(0);
  await untilDone("tree", 2);

  const state = join(sb.dir, ".troupe");
  const found = walk(state);
  const paths = found.map((f) => f.path);
  for (const p of ["troupe.db", "troupe.db-wal", "troupe.db-shm", "daemon.log", "daemon.lock", "logs/tree/2.exit", "worktrees/tree/.troupe/input/prompt.md", "worktrees/tree/.troupe/output/signal.json"]) {
    expect(paths).toContain(p);
  }
  // the one executable: the `troupe` shim on agents' PATH where the daemon is no binary named troupe (Deno)
  expect(found.filter((f) => f.mode !== (f.dir || f.path === "bin/troupe" ? 0o700 : 0o600))).toEqual([]);
  expect(mode(join(state, "worktrees", "tree"))).toBe(0o700);
  const umask = process.umask();
  expect(mode(join(state, "worktrees", "tree", "made-by-agent"))).toBe(0o666 & ~umask);
});

// issue 18: after `troupe rm` a secret the agent printed stayed readable in troupe.db-wal until
// the next checkpoint happened to start the WAL over, and its status events kept its result
test("after rm nothing of the agent (what it printed, its command, its result) stays readable in the store's files", async () => {
  sb = new Sandbox();
  const secret = `printed-${crypto.randomUUID()}`;
  await sb.json(["spawn", "--no-worktree", "--name", "leaky", "--command", `echo ${secret}; echo ${secret} >&2; troupe signal done --result ${secret}`, "--json"]);
  await untilDone("leaky", 1);
  await waitFor("its output stored", async () => ((await sb.run(["logs", "leaky", "--raw"])).stdout.includes(secret) ? true : undefined));
  // (booleans: a failure must not print the whole store)
  expect(storeBytes().includes(secret)).toBe(true);
  expect((await sb.run(["rm", "leaky"])).code).toBe(0);
  const left = ["troupe.db", "troupe.db-wal", "troupe.db-shm"].filter((f) => {
    const p = join(sb.dir, ".troupe", f);
    return existsSync(p) && readFileSync(p).toString("latin1").includes(secret);
  });
  expect(left).toEqual([]);
});
