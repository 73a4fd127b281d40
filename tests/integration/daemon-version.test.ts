import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { MatrixRun } from "../support/identity-matrix.ts";

interface AgentJson {
  name: string;
  status: string;
  result: string | null;
  pid: number | null;
}

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

// TROUPE_TEST_BUILD_VERSION stands in for two builds of troupe: the daemon of the older one still
// runs when the newer binary's first client arrives.
const OLD = { TROUPE_TEST_BUILD_VERSION: "0.1.0+1000" };
const NEW = { TROUPE_TEST_BUILD_VERSION: "0.1.0+2000" };

test("a newer client restarts an older daemon by itself and the new one adopts its agents; an older client is told", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"], { env: OLD });
  // the agent's own troupe calls run the replaced binary, as they would after a rebuild
  await sb.json(["spawn", "--no-worktree", "--name", "kept", "--command", "while [ ! -f go ]; do sleep 0.05; done; TROUPE_TEST_BUILD_VERSION=0.1.0+2000 troupe signal done --result survived", "--json"], { env: OLD });
  const oldPid = (await sb.daemonPid())!;
  const before = (await sb.json<AgentJson[]>(["ls", "--json"], { env: OLD }))[0]!;
  expect(before.status).toBe("running");

  const r = await sb.run(["ls", "--json"], { env: NEW });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject([{ name: "kept", status: "running", pid: before.pid }]);
  const health = JSON.parse((await sb.run(["daemon", "status", "--json"], { env: NEW })).stdout);
  expect(health.pid).not.toBe(oldPid);
  expect(health.version).toBe("0.1.0+2000");

  writeFileSync(join(sb.dir, "go"), "");
  const done = await waitFor("the adopted agent done", async () => {
    const a = (await sb.json<AgentJson[]>(["ls", "--json"], { env: NEW }))[0];
    return a?.status === "done" ? a : undefined;
  });
  expect(done.result).toBe("survived");

  const old = await sb.run(["ls"], { env: OLD });
  expect(old.code).toBe(1);
  expect(old.stderr).toBe("troupe: this troupe (0.1.0+1000) is older than the workspace's daemon (0.1.0+2000): run the newer troupe, or 'troupe daemon restart' to go back to this one\n");
}, 30_000);

test("troupe daemon restart replaces the daemon by hand, whichever build asks", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"], { env: NEW });
  const first = (await sb.daemonPid())!;
  const r = await sb.run(["daemon", "restart"], { env: OLD });
  expect(r.stderr).toBe("");
  const second = (await sb.daemonPid())!;
  expect(second).not.toBe(first);
  expect(r.stdout).toBe(`daemon ${first} restarted as ${second} (troupe 0.1.0+1000); agents keep running\n`);
  expect((await sb.run(["ls"], { env: OLD })).code).toBe(0);
});

test("an ACP runner of an older build still files and waits on its permission requests at a newer daemon; the rest of the API tells it", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"], { env: NEW });
  const { token } = await new MatrixRun(sb).spawnAs(null, "live");
  // the runner's own build: older than the daemon, which was upgraded while the session ran
  const older = async (method: string, path: string, body?: unknown) => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json", "troupe-version": "0.1.0+1000" };
    const res = await fetch(`http://troupe${path}`, { unix: sb.socket, method, headers, ...(body !== undefined && { body: JSON.stringify(body) }) });
    return { status: res.status, json: (await res.json()) as { request?: { id: string }; error?: { code: string } } };
  };
  const filed = await older("POST", "/v1/permissions", { toolName: "Bash", input: { command: "ls" }, toolUseId: "t-1" });
  expect(filed.status).toBe(200);
  expect((await older("GET", `/v1/permissions/${filed.json.request!.id}/wait?timeout=1`)).status).toBe(200);
  const other = await older("GET", "/v1/agents");
  expect(other.status).toBe(409);
  expect(other.json.error?.code).toBe("client_outdated");
}, 30_000);
