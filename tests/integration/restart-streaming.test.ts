import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

interface AgentJson {
  name: string;
  status: string;
  result: string | null;
}

const LINES = 4000;

test("kill -9 of the daemon while 5 agents stream: every byte is stored exactly once, in order, and every agent ends right", async () => {
  sb = new Sandbox();
  // each agent writes numbered lines in bursts, some without a trailing newline until the next burst
  const cmd = (n: string) =>
    `i=1; while [ $i -le ${LINES} ]; do printf '${n} line %d\\n' $i; if [ $((i % 400)) -eq 0 ]; then printf '${n} partial'; sleep 0.15; printf ' %d\\n' $i; fi; i=$((i+1)); done; troupe signal done --result ${n}-ok`;
  const names = ["s1", "s2", "s3", "s4", "s5"];
  for (const n of names) await sb.json(["spawn", "--no-worktree", "--name", n, "--command", cmd(n), "--json"]);
  const first = await sb.daemonPid();
  await Bun.sleep(500); // mid-stream: each agent takes ~1.5 s
  process.kill(first!, "SIGKILL");
  await Bun.sleep(300); // agents keep writing with no daemon
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
  expect(await sb.daemonPid()).not.toBe(first);

  const agents = await waitFor(
    "all agents to end",
    async () => {
      const all = await sb.json<AgentJson[]>(["ls", "--json"]);
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
