import { afterEach, expect, spyOn, test } from "bun:test";
import { join } from "node:path";
import { composeAgents, type AgentUnits } from "../../../src/agents/compose.ts";
import { EventBus } from "../../../src/events/bus.ts";
import { Logger } from "../../../src/events/log.ts";
import { createStore } from "../../../src/store/index.ts";
import { Sandbox } from "../../support/sandbox.ts";

let sb: Sandbox;
let agents: AgentUnits;
afterEach(async () => {
  for (const a of agents?.query.list() ?? []) agents.stop.stop(a.id);
  await agents?.runtime.shutdown();
  await sb?.close();
});

test("spawns at once never pick the same name (a name is held from its pick to its record)", async () => {
  sb = new Sandbox();
  const log = new Logger(join(sb.runtime, "daemon.log"));
  const store = createStore(join(sb.runtime, "t.db"), log);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  agents = composeAgents({ ws, store, bus: new EventBus(store.events, log), log, binDir: sb.runtime });
  // every pick proposes the same name first: only a held name makes the second spawn look further
  const random = spyOn(Math, "random").mockReturnValue(0);
  try {
    const spawned = await Promise.all(
      [1, 2, 3].map(() => agents.spawn.spawn({ provider: "generic", command: "exit 0", worktree: true, permissions: "skip", env: { PATH: process.env.PATH ?? "" } })),
    );
    expect(spawned.map((a) => a.name).sort()).toEqual(["amber-badger", "amber-badger-2", "amber-badger-3"]);
  } finally {
    random.mockRestore();
  }
});
