import { afterEach, expect, test } from "bun:test";
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

// Since migration 22 the offsets a session's files are stored to live in its newest chunk row,
// both streams' in each row (src/store/output-tally.ts): a daemon killed while an agent writes to
// stdout and stderr, the stderr line long behind the newest stdout rows, must carry on from exactly
// where the store is, in both files.

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const LINES = 3000;

test("kill -9 mid-stream with stdout and stderr interleaved: after the restart each stream is stored once, in order", async () => {
  sb = new Sandbox();
  // a stderr line every 100 stdout lines; halfway it holds (inside a partial stdout line) until
  // the daemon is killed, then writes the rest while no daemon runs
  const cmd =
    `i=1; while [ $i -le ${LINES} ]; do printf 'out %d\\n' $i; if [ $((i % 100)) -eq 0 ]; then printf 'err %d\\n' $i >&2; fi; ` +
    `if [ $i -eq ${LINES / 2} ]; then printf 'out partial'; while [ ! -f half ]; do sleep 0.05; done; printf ' done\\n'; fi; i=$((i+1)); done; ` +
    `while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result ok`;
  await sb.json(["spawn", "--no-worktree", "--name", "both", "--command", cmd, "--json"]);
  const first = await sb.daemonPid();
  const out = () => statSync(join(sb.dir, ".troupe", "logs", "both", "1.out"), { throwIfNoEntry: false })?.size ?? 0;
  const stored = async () => {
    const res = await fetch(`http://troupe/v1/agents/both/output?limit=10000`, { unix: sb.socket });
    return ((await res.json()) as { chunks: { stream: string; data: string }[] }).chunks;
  };
  // held halfway, everything before the partial line stored (stderr's last line far behind stdout's)
  await waitFor("the first half stored", async () => (await stored()).some((c) => c.stream === "stdout" && c.data.includes(`out ${LINES / 2}\n`)));
  const atKill = out();
  process.kill(first!, "SIGKILL");
  writeFileSync(join(sb.dir, "half"), "");
  await waitFor("the agent writing with no daemon", () => out() > atKill);
  expect((await sb.run(["daemon", "start"])).code).toBe(0);
  writeFileSync(join(sb.dir, "go"), "");
  const agent = await waitFor(
    "the agent to end",
    async () => {
      const [a] = await sb.json<Agent[]>(["ls", "--json"]);
      return a && a.status !== "running" && a.status !== "starting" ? a : undefined;
    },
    30_000,
  );
  expect(agent).toMatchObject({ status: "done", result: "ok" });

  const logs = await sb.run(["logs", "both", "--raw"]);
  const outs: string[] = [];
  const errs: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    outs.push(i === LINES / 2 ? `out ${i}\nout partial done` : `out ${i}`);
    if (i % 100 === 0) errs.push(`err ${i}`);
  }
  expect(logs.stdout.split("\n").filter(Boolean)).toEqual([...outs.join("\n").split("\n"), "signalled done"]);
  expect(logs.stderr.split("\n").filter((l) => l && !l.startsWith("troupe: "))).toEqual(errs);
});
