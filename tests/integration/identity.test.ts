import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, ROOT, waitFor } from "../support/sandbox.ts";
import { CALLERS, MatrixRun, UNCOVERED, docsMatrix, type CallerName, type Matrix } from "../support/identity-matrix.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
const open: Sandbox[] = [];
/** A sandbox closed after the test, and the current `sb`. */
function sandbox(): Sandbox {
  sb = new Sandbox();
  open.push(sb);
  return sb;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

/**
 * What each caller must get, written by hand (never derived from src/services/policy.ts): the
 * person may do everything but signal; an agent reads, spawns, asks and signals as itself, acts
 * on itself and its descendants, answers what is addressed to it, reads the work model and starts
 * mode runs (its children), never decides on it; a forged token gets nothing, and neither does a
 * request without a token on the agents' socket (a sandboxed agent passing for the person).
 * Columns: person, self, parent, grandparent, child, unrelated, forged; the sandboxed column is 401 on every row.
 */
const ALL = [200, 200, 200, 200, 200, 200, 401];
const LINEAGE = [200, 200, 200, 200, 403, 403, 401];
const PERSON = [200, 403, 403, 403, 403, 403, 401];
const EXPECTED_ROWS: [string, number[]][] = [
  ["GET /v1/health", ALL],
  ["GET /v1/agents", ALL],
  ["GET /v1/agents/:ref", ALL],
  ["GET /v1/agents/:ref/output", ALL],
  ["GET /v1/agents/:ref/diff", ALL],
  ["GET /v1/agents/:ref/wait", ALL],
  ["POST /v1/agents", [201, 201, 201, 201, 201, 201, 401]],
  // naming an account is the person's: an agent is refused alike for one that exists and one that does not
  ["POST /v1/agents with account", [201, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents with unknown account", [404, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/stop", LINEAGE],
  ["POST /v1/agents/:ref/resume", LINEAGE],
  // the person passes and is refused by the agent's state (it runs: stop it first)
  ["POST /v1/agents/:ref/attach", [409, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/attach/pid", [409, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/detach", PERSON],
  ["POST /v1/agents/:ref/resume with env", PERSON],
  ["DELETE /v1/agents/:ref", LINEAGE],
  ["POST /v1/signal", [403, 200, 200, 200, 200, 200, 401]],
  ["POST /v1/conversations", [201, 201, 201, 201, 201, 201, 401]],
  ["GET /v1/conversations", ALL],
  ["GET /v1/conversations/:id", ALL],
  ["POST /v1/conversations/:id/answer", [200, 200, 403, 403, 403, 403, 401]],
  ["GET /v1/listen", ALL],
  // anyone sends (signed as itself); an inbox is the caller's own; only the person marks its messages read
  ["POST /v1/messages", [201, 201, 201, 201, 201, 201, 401]],
  ["GET /v1/inbox", ALL],
  ["POST /v1/messages/:id/read", PERSON],
  ["GET /v1/messages", PERSON],
  // the review of an agent's diff is the person's (an agent tells another about its code with a message)
  ["GET /v1/agents/:ref/review", PERSON],
  ["POST /v1/agents/:ref/review/comments", [400, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/review/comments/batch", [400, 403, 403, 403, 403, 403, 401]],
  ["PATCH /v1/review-comments/:id", [404, 403, 403, 403, 403, 403, 401]],
  ["DELETE /v1/review-comments/:id", [404, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/review/send", [400, 403, 403, 403, 403, 403, 401]],
  // a push and a pull request speak for the person (their git credentials, their GitHub account); the sandbox has no remote
  ["POST /v1/agents/:ref/push", [409, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/agents/:ref/pr", [409, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/initiatives/:ref/push", [409, 403, 403, 403, 403, 403, 401]],
  ["POST /v1/initiatives/:ref/pr", [409, 403, 403, 403, 403, 403, 401]],
  ["GET /v1/events", ALL],
  ["POST /v1/gc", PERSON],
  ["GET /v1/accounts", PERSON],
  ["POST /v1/accounts", [201, 403, 403, 403, 403, 403, 401]],
  ["DELETE /v1/accounts/:ref", PERSON],
  ["POST /v1/accounts/:ref/reset", PERSON],
  // the pool of hosts (this machine alone here) is the person's to look at
  ["GET /v1/host", PERSON],
  ["GET /v1/hosts", PERSON],
  // an agent files only its own tool calls; nobody but the person decides one, the asker included
  ["POST /v1/permissions", [403, 200, 200, 200, 200, 200, 401]],
  ["GET /v1/permissions", ALL],
  ["GET /v1/permissions/:id", ALL],
  ["GET /v1/permissions/:id/wait", ALL],
  ["POST /v1/permissions/:id/decide", PERSON],
  ["GET /v1/initiatives", ALL],
  ["POST /v1/initiatives", [201, 403, 403, 403, 403, 403, 401]],
  ["GET /v1/initiatives/:ref", ALL],
  ["GET /v1/initiatives/:ref/tree", ALL],
  ["GET /v1/initiatives/:ref/work", ALL],
  ["GET /v1/initiatives/:ref/diff", ALL],
  ["GET /v1/initiatives/:ref/decisions", ALL],
  ["GET /v1/prompts/:mode", ALL],
  ["GET /v1/work/:ref", ALL],
  ["POST /v1/approve", PERSON],
  ["POST /v1/work/:ref/reject", PERSON],
  ["PATCH /v1/work/:ref", PERSON],
  ["POST /v1/work/:ref/pin", PERSON],
  // the person passes and is refused by the task's state (pending: nothing to retry)
  ["POST /v1/tasks/:ref/retry", [409, 403, 403, 403, 403, 403, 401]],
  // dispatch starts paid agents with the caller's environment: the person's alone
  ["POST /v1/initiatives/:ref/dispatch", PERSON],
  ["DELETE /v1/initiatives/:ref/dispatch", PERSON],
  // a budget limits what the person's accounts spend: an agent never raises its own initiative's
  ["POST /v1/initiatives/:ref/budget", PERSON],
  ["POST /v1/initiatives/:ref/archive", PERSON],
  ["POST /v1/initiatives/:ref/discuss", [201, 201, 201, 201, 201, 201, 401]],
  ["POST /v1/initiatives/:ref/plan", [201, 201, 201, 201, 201, 201, 401]],
  ["POST /v1/initiatives/:ref/refine", [201, 201, 201, 201, 201, 201, 401]],
  ["POST /v1/phases/:ref/detail", [201, 201, 201, 201, 201, 201, 401]],
  // profiles are read by anyone; flows are the person's to add, change and run, anyone's to read
  ["GET /v1/profiles", ALL],
  ["GET /v1/profiles/:name", ALL],
  ["GET /v1/flows", ALL],
  ["POST /v1/flows", [201, 403, 403, 403, 403, 403, 401]],
  ["GET /v1/flows/:ref", ALL],
  ["POST /v1/flows/:ref/disable", PERSON],
  ["POST /v1/flows/:ref/enable", PERSON],
  ["POST /v1/flows/:ref/run", PERSON],
  ["DELETE /v1/flows/:ref", PERSON],
  ["POST /v1/daemon/stop", PERSON],
];
const EXPECTED: Matrix = Object.fromEntries(
  EXPECTED_ROWS.map(([route, statuses]) => [route, Object.fromEntries(CALLERS.map((c, i) => [c, [...statuses, 401][i]!])) as Record<CallerName, number>]),
);

const agentsOf = async () => sb.json<Agent[]>(["ls", "--json"]);
const until = (name: string, ok: (a: Agent) => boolean) =>
  waitFor(`${name} to settle`, async () => {
    const a = (await agentsOf()).find((x) => x.name === name);
    return a && ok(a) ? a : undefined;
  });

describe("who may do what", () => {
  test("every route × every caller gets the status the table says, from the live daemon", async () => {
    sandbox();
    await sb.run(["daemon", "start"]);
    const actual = await new MatrixRun(sb).run();
    expect(actual).toEqual(EXPECTED);
  }, 120_000);

  test("no endpoint of the API table escapes the matrix", () => {
    expect(UNCOVERED).toEqual([]);
  });

  test("docs/security.md shows the same table", () => {
    expect(docsMatrix(readFileSync(join(ROOT, "docs/security.md"), "utf8"))).toEqual(EXPECTED);
  });

  test("an agent's spawn is its child; removing an agent hands its children to its parent", async () => {
    sandbox();
    const run = new MatrixRun(sb);
    await sb.run(["daemon", "start"]);
    const top = await run.spawnAs(null, "live");
    const mid = await run.spawnAs(top.token, "finished");
    const low = await run.spawnAs(mid.token, "live");
    expect([top.agent.parentId, mid.agent.parentId, low.agent.parentId]).toEqual([null, top.agent.id, mid.agent.id]);
    expect((await run.api(top.token, "DELETE", `/v1/agents/${mid.agent.name}`)).status).toBe(200);
    expect((await run.until(low.agent.name, () => true)).parentId).toBe(top.agent.id);
    // still its grandchild's ancestor: top may stop it
    expect((await run.api(top.token, "POST", `/v1/agents/${low.agent.name}/stop`, {})).status).toBe(200);
  }, 30_000);
});

describe("signals go through the daemon", () => {
  test("mallory naming alice's signal file signals for herself only; alice ends on her own terms", async () => {
    sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "alice", "--command", "while [ ! -f go ]; do sleep 0.05; done; exit 0", "--json"]);
    const aliceFile = join(sb.dir, ".troupe/agents/alice/output/signal.json");
    const mallory = `TROUPE_SIGNAL_FILE=${aliceFile} troupe signal done --result from-mallory`;
    await sb.json(["spawn", "--no-worktree", "--name", "mallory", "--command", mallory, "--json"]);
    expect(await until("mallory", (a) => a.status !== "running" && a.status !== "starting")).toMatchObject({ status: "done", result: "from-mallory" });
    expect(existsSync(aliceFile)).toBe(false);
    await Bun.write(join(sb.dir, "go"), "");
    expect(await until("alice", (a) => a.status === "failed")).toMatchObject({ result: null, error: "exited with code 0 without a signal (the agent must end with 'troupe signal')" });
  }, 30_000);

  test("the person cannot signal; with the daemon gone, an agent's signal starts it again and counts", async () => {
    sandbox();
    await sb.run(["daemon", "start"]);
    const res = await fetch("http://troupe/v1/signal", { unix: sb.socket, method: "POST", body: JSON.stringify({ status: "done" }) });
    expect(res.status).toBe(403);
    // a signal the session's end would refuse to read is refused now, while the agent can shorten it
    const run = new MatrixRun(sb);
    const agent = await run.spawnAs(null, "live");
    const big = await run.api(agent.token, "POST", "/v1/signal", { status: "done", result: "x".repeat(2 * 1024 * 1024) });
    expect(big).toMatchObject({ status: 413, json: { error: { code: "payload_too_large" } } });
    await sb.json(["spawn", "--no-worktree", "--name", "late", "--command", "while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result offline", "--json"]);
    await until("late", (a) => a.status === "running");
    await sb.run(["daemon", "stop"]);
    await waitFor("the daemon to go", () => !existsSync(sb.socket));
    await Bun.write(join(sb.dir, "go"), "");
    // the agent's `troupe signal` started the daemon again: its signal is recorded, not a file it wrote
    expect(await until("late", (a) => a.status !== "running" && a.status !== "starting")).toMatchObject({ status: "done", result: "offline" });
    // a token nobody was given is refused by the daemon it starts, with one line
    const forged = await sb.run(["signal", "done", "--result", "offline"], { env: { TROUPE_AGENT_TOKEN: "any" } });
    expect(forged).toMatchObject({ code: 1, stdout: "", stderr: "troupe: unknown agent token\n" });
  }, 30_000);

  test("the daemon never writes through a link an agent planted in its folder", async () => {
    sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "victim", "--command", "exec sleep 600", "--json"]);
    const cmd = `rm -rf "$(dirname "$TROUPE_SIGNAL_FILE")" && ln -s ${sb.dir}/.troupe/agents/victim/output "$(dirname "$TROUPE_SIGNAL_FILE")" && troupe signal done --result planted`;
    await sb.json(["spawn", "--no-worktree", "--name", "linker", "--command", `${cmd} 2> err.txt; exit 0`, "--json"]);
    await until("linker", (a) => a.status === "failed");
    expect(readFileSync(join(sb.dir, "err.txt"), "utf8")).toContain("through a link");
    expect(existsSync(join(sb.dir, ".troupe/agents/victim/output/signal.json"))).toBe(false);
  }, 30_000);
});

describe("agents cannot act on each other", () => {
  test("an unrelated agent cannot resume another with its environment; the next session runs without it", async () => {
    sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "victim", "--command", `troupe signal done --result "EVIL=\${EVIL:-unset}"`, "--json"]);
    expect(await until("victim", (a) => a.status === "done")).toMatchObject({ result: "EVIL=unset" });
    const run = new MatrixRun(sb);
    const mallory = await run.spawnAs(null, "live");
    const r = await run.api(mallory.token, "POST", "/v1/agents/victim/resume", { message: "hi", env: { EVIL: "1", PATH: process.env.PATH } });
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ error: { code: "forbidden", message: `${mallory.agent.name} may not resume victim: an agent may act only on itself and on the agents it started` } });
    expect((await run.until("victim", () => true)).session).toBe(1);
    expect((await sb.run(["resume", "victim", "--message", "again"])).code).toBe(0);
    expect(await until("victim", (a) => a.session === 2 && a.status === "done")).toMatchObject({ result: "EVIL=unset" });
  }, 30_000);

  test("from an agent's shell, stopping another agent or the daemon is refused with one clear line", async () => {
    sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "bystander", "--command", "exec sleep 600", "--json"]);
    const cmd = `troupe stop bystander 2> stop.err; troupe daemon stop 2> daemon.err; troupe signal done`;
    await sb.json(["spawn", "--no-worktree", "--name", "rogue", "--command", cmd, "--json"]);
    await until("rogue", (a) => a.status === "done");
    expect(readFileSync(join(sb.dir, "stop.err"), "utf8")).toBe("troupe: rogue may not stop bystander: an agent may act only on itself and on the agents it started\n");
    expect(readFileSync(join(sb.dir, "daemon.err"), "utf8")).toBe("troupe: rogue may not stop the daemon: only the person may\n");
    expect((await agentsOf()).find((a) => a.name === "bystander")?.status).toBe("running");
  }, 30_000);
});
