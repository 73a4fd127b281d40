import { expect, test } from "bun:test";
import { IdleExit } from "../../src/daemon/idle.ts";
import { waitFor } from "../support/sandbox.ts";

test("the idle exit waits for quiet time, then for every hold to end, and 0 never exits", async () => {
  const exits: string[] = [];
  let busy = true;
  const idle = new IdleExit(100, (why) => exits.push(why));
  idle.hold("a live agent", () => busy);
  idle.start();
  const t0 = Date.now();
  // held: checks come and go without an exit
  await waitFor("a few idle periods", () => Date.now() - t0 > 350);
  expect(exits).toEqual([]);
  busy = false;
  const released = Date.now();
  await waitFor("the exit", () => exits.length === 1);
  // quiet time counts from when the hold ended
  expect(Date.now() - released).toBeGreaterThanOrEqual(90);
  expect(exits[0]).toStartWith("idle for ");

  const never = new IdleExit(0, (why) => exits.push(why));
  never.start();
  const t1 = Date.now();
  await waitFor("a while", () => Date.now() - t1 > 150);
  expect(exits).toHaveLength(1);
  never.stop();
});

test("a request pushes the idle exit back", async () => {
  let exitedAt = 0;
  const idle = new IdleExit(200, () => (exitedAt = Date.now()));
  idle.start();
  const t0 = Date.now();
  await waitFor("half the idle time", () => Date.now() - t0 > 120);
  idle.touch();
  const touched = Date.now();
  await waitFor("the exit", () => exitedAt > 0, 2_000);
  expect(exitedAt - touched).toBeGreaterThanOrEqual(190);
});
