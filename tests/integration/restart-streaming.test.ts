import { afterEach, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const LINES = 4000;

test("kill -9 of the daemon while 5 agents stream: every byte is stored exactly once, in order, and every agent ends right", async () => {
  sb = new Sandbox();
  // each agent writes numbered lines in bursts, some without a trailing newline until the next
  // burst; halfway it holds inside a partial line until the daemon is killed (file "half"), so the
  // kill lands mid-stream however slowly the machine runs the spawns
  const cmd = (n: string) =>
    `i=1; while [ $i -le ${LINES} ]; do printf '${n} line %d\\n' $i; if [ $((i % 400)) -eq 0 ]; then printf '${n} partial'; if [ $i -eq ${LINES / 2} ]; then while [ ! -f half ]; do sleep 0.05; done; else sleep 0.15; fi; printf ' %d\\n' $i; fi; i=$((i+1)); done; while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result ${n}-ok`;
  const names = ["s1", "s2", "s3", "s4", "s5"];
  for (const n of names) await sb.json(["spawn", "--no-worktree", "--name", n, "--command", cmd(n), "--json"]);
  const first = await sb.daemonPid();
  const written = (n: string) => statSync(join(sb.dir, ".troupe", "logs", n, "1.out"), { throwIfNoEntry: false })?.size ?? 0;
  // mid-stream: every agent has output stored and is still running
  const stored = async (n: string) => {
    const res = await fetch(`http://troupe/v1/agents/${n}/output?limit=1`, { unix: sb.socket });
    return ((await res.json()) as { chunks: unknown[] }).chunks.length > 0;
  };
  await waitFor("every agent streaming", async () => {
    const all = await sb.json<Agent[]>(["ls", "--json"]);
    return all.every((a) => a.status === "running") && (await Promise.all(names.map(stored))).every(Boolean);
  });
  const atKill = new Map(names.map((n) => [n, written(n)]));
  process.kill(first!, "SIGKILL");
  writeFileSync(join(sb.dir, "half"), "");
  await waitFor("agents writing with no daemon", () => names.every((n) => written(n) > atKill.get(n)!));
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
  expect(await sb.daemonPid()).not.toBe(first);
  // the agents signal only now: a fast agent must not end (and signal) while no daemon answers
  writeFileSync(join(sb.dir, "go"), "");

  const agents = await waitFor(
    "all agents to end",
    async () => {
      const all = await sb.json<Agent[]>(["ls", "--json"]);
      return all.every((a) => a.status !== "running" && a.status !== "starting") ? all : undefined;
    },
    30_000,
  );
  for (const a of agents) expect(a).toMatchObject({ status: "done", result: `${a.name}-ok` });

  for (const n of names) {
    const raw = (await sb.run(["logs", n, "--raw"])).stdout;
    const expected: string[] = [];
    for (let i = 1; i <= LINES; i++) {
      expected.push(`${n} line ${i}`);
      if (i % 400 === 0) expected.push(`${n} partial ${i}`);
    }
    expected.push("signalled done"); // what `troupe signal` itself prints
    expect(raw.split("\n").filter(Boolean)).toEqual(expected);
  }
});
