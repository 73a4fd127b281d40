import { afterAll, expect, test } from "bun:test";
import { join } from "node:path";
import { Logger } from "../../src/events/log.ts";
import { createStore } from "../../src/store/index.ts";
import { createServices } from "../../src/services/create.ts";
import { PartRunner } from "../../src/services/parts.ts";
import { Sandbox } from "../support/sandbox.ts";

const sb = new Sandbox();
afterAll(() => sb.close());

/** The order create.ts explains at each entry; a reorder changes this test on purpose. */
test("the services' parts start in their declared order, the agents' stop placed so that it comes after every follower's, and all stop cleanly", async () => {
  const log = new Logger(join(sb.runtime, "daemon.log"));
  const store = createStore(join(sb.runtime, "t.db"), log);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  const core = createServices({ ws, store, log, binDir: sb.runtime, stopDaemon: () => {} });
  const names = core.parts.map((p) => p.name);
  expect(names).toEqual([
    "notifier",
    "agents' stop",
    "mode imports",
    "conversation follower",
    "message delivery",
    "permissions",
    "uncommitted follower",
    "agents",
    "live inputs",
    "mode sweep",
    "delivery sweep",
    "conversation expiry",
    "worktree reaper",
    "flows",
    "host links",
    "dispatcher",
  ]);
  // what may resume an agent stops before the agents stop watching theirs
  const stopOrder = core.parts.filter((p) => p.stop).map((p) => p.name).reverse();
  for (const resumer of ["conversation follower", "message delivery", "uncommitted follower", "dispatcher", "flows"]) {
    expect(stopOrder.indexOf(resumer)).toBeLessThan(stopOrder.indexOf("agents' stop"));
  }
  const failures: string[] = [];
  const runner = new PartRunner(core.parts, "the services", (name) => failures.push(name));
  await runner.start();
  await runner.stop();
  store.close();
  expect(failures).toEqual([]);
});
