import { afterEach, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { findProcesses, newMarker, nothingFound, SESSION_KEY_VAR, signalAll } from "../../../src/agents/processes/find.ts";
import { exitStatus } from "../../../src/agents/processes/exit-tracker.ts";
import { waitFor } from "../../support/sandbox.ts";

const started: ChildProcess[] = [];
const markers: string[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.pid) signalAll({ pids: [], groups: [c.pid] }, "SIGKILL");
  signalAll(findProcesses({ markers: markers.splice(0), groups: [] }), "SIGKILL");
});

/** A detached shell (own group) that forks a grandchild which setsid's away and prints its pid. */
function agentLike(env: Record<string, string>): Promise<{ leader: number; escaped: number }> {
  const child = spawn("/bin/sh", ["-c", `setsid sh -c 'echo $$; exec sleep 1000' & wait`], { env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "ignore"] });
  started.push(child);
  return new Promise((resolve) => child.stdout!.once("data", (d: Buffer) => resolve({ leader: child.pid!, escaped: Number(d.toString().trim()) })));
}

test("a process that left the group is found by its session marker, and no other", async () => {
  const mine = newMarker();
  const other = newMarker();
  markers.push(mine, other);
  const a = await agentLike({ [SESSION_KEY_VAR]: mine });
  const b = await agentLike({ [SESSION_KEY_VAR]: other });
  const found = findProcesses({ markers: [mine], groups: [] });
  expect(found.pids).toContain(a.leader);
  expect(found.pids).toContain(a.escaped);
  expect(found.pids).not.toContain(b.leader);
  expect(found.pids).not.toContain(b.escaped);
  expect(found.pids).not.toContain(process.pid);
  // the escaped one leads its own group: that group is signalled as a whole
  expect(found.groups).toContain(a.escaped);
  signalAll(found, "SIGKILL");
  await waitFor("a's processes gone", () => nothingFound(findProcesses({ markers: [mine], groups: [] })));
  expect(findProcesses({ markers: [other], groups: [] }).pids).toContain(b.escaped);
});

test("a group is found without a marker (a process that cleared its environment stays in it)", async () => {
  const child = spawn("/bin/sh", ["-c", "exec env -i sleep 1000"], { detached: true, stdio: "ignore" });
  started.push(child);
  await waitFor("the exec", () => findProcesses({ markers: [], groups: [child.pid!] }).pids.includes(child.pid!));
  expect(findProcesses({ markers: [newMarker()], groups: [] }).pids).not.toContain(child.pid!);
});

test("a signal death is 128 + the signal, as a shell says it", () => {
  expect(exitStatus(0, null)).toBe(0);
  expect(exitStatus(3, null)).toBe(3);
  expect(exitStatus(null, "SIGKILL")).toBe(137);
  expect(exitStatus(null, "SIGTERM")).toBe(143);
  expect(exitStatus(null, null)).toBeNull();
});
