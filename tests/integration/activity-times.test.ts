import { afterEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { ACTIVITY_FLUSH_MS } from "../../src/agents/sessions/activity-times.ts";

// An agent's last-activity time comes from its output and is written for every agent that spoke
// together, once per ACTIVITY_FLUSH_MS (src/agents/sessions/activity-times.ts), not a commit per
// line: what is written must survive a kill -9, and an inactivity limit must see what waits.

const SLOW = { timeout: 40_000 };

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

async function agent(name: string): Promise<Agent> {
  const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
  if (!a) throw new Error(`no agent ${name}`);
  return a;
}

async function chunks(name: string): Promise<{ createdAt: number }[]> {
  const res = await fetch(`http://troupe/v1/agents/${name}/output?limit=10000`, { unix: sb.socket });
  return ((await res.json()) as { chunks: { createdAt: number }[] }).chunks;
}

test("the time of an agent's last output is in the store a flush period later: a kill -9 of the daemon keeps it", async () => {
  sb = new Sandbox();
  await sb.json(["spawn", "--no-worktree", "--name", "chatty", "--command", "while [ ! -f quiet ]; do echo tick; sleep 0.2; done; sleep 1000", "--json"]);
  await waitFor("ten lines stored", async () => (await chunks("chatty")).length >= 10);
  writeFileSync(join(sb.dir, "quiet"), "");
  // no new line for a while: the agent is quiet
  let seen = -1;
  await waitFor("the output to stop", async () => {
    const n = (await chunks("chatty")).length;
    const still = n === seen;
    seen = n;
    if (!still) await new Promise((r) => setTimeout(r, 500));
    return still;
  });
  await new Promise((r) => setTimeout(r, ACTIVITY_FLUSH_MS + 1_000));
  await sb.killDaemon();
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
  const last = (await chunks("chatty")).at(-1)!;
  const a = await agent("chatty");
  // the time noted as its last line was stored (never older: a time written every 2 s at most would often be)
  expect(a.lastActivityAt).toBeGreaterThanOrEqual(last.createdAt);
  expect(a.lastActivityAt!).toBeLessThan(last.createdAt + 1_000);
}, SLOW);

test("an inactivity limit counts from the last output, written or not yet: an agent writing every 0.3 s outlives a 2 s limit", async () => {
  sb = new Sandbox();
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify({ lifecycle: { retry: { maxAttempts: 1 } } }));
  const cmd = "i=0; while [ $i -lt 27 ]; do echo line $i; sleep 0.3; i=$((i+1)); done; troupe signal done --result spoke";
  await sb.json(["spawn", "--no-worktree", "--name", "steady", "--idle-timeout", "2s", "--command", cmd, "--json"]);
  const a = await waitFor("steady to end", async () => {
    const x = await agent("steady");
    return ["done", "failed", "waiting", "stopped"].includes(x.status) ? x : undefined;
  }, 30_000);
  expect(a).toMatchObject({ status: "done", result: "spoke", failure: null });
}, SLOW);
