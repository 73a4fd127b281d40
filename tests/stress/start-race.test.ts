import { afterEach, expect, test } from "bun:test";
import { Sandbox } from "../support/sandbox.ts";
import { runStartRace } from "../../scripts/stress/start-race.ts";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

for (const clients of [10, 30]) {
  test(`${clients} clients (ls, spawn, ask --user, daemon start) released at once on a workspace without a daemon: one daemon, no failed client`, async () => {
    sb = new Sandbox();
    const r = await runStartRace(sb, clients);
    expect(r.failures).toEqual([]);
    expect({ lock: r.lockHolders, processes: r.daemonProcesses, serving: r.servingLines }).toEqual({ lock: 1, processes: 1, serving: 1 });
  });
}
