import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { Logger } from "../../src/events/log.ts";
import { daemonParts } from "../../src/daemon/daemon-parts.ts";

/** The order is the daemon's contract with itself (daemon-parts.ts says why each part is where it is): a reorder changes this test on purpose. */
test("the daemon's parts, in the order they start (they stop in reverse)", () => {
  const ws = { root: "/nonexistent/ws", stateDir: "/nonexistent/ws/.troupe", socket: "/nonexistent/d.sock", socketExplicit: true };
  const parts = daemonParts(ws, { release: () => {} } as never, new Logger(join(ws.stateDir, "daemon.log")), () => {});
  expect(parts.map((p) => p.name)).toEqual([
    "lock",
    "state files",
    "store",
    "services",
    "event log",
    "service parts",
    "server",
    "idle exit",
    "workspace watch",
    "signals",
  ]);
  // reading the list does nothing: each part acts only when it starts
  expect(existsSync(ws.stateDir)).toBe(false);
});
