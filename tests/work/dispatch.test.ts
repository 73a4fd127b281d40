import { afterEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Dispatcher } from "../../src/work/dispatch.ts";
import { Rows } from "../support/rows.ts";
import { waitFor } from "../support/sandbox.ts";

/**
 * Dispatch's step of the end-of-run sequence: a run's end is news to settle, so a pass runs.
 * What a pass does here is seen on an initiative whose dispatch capture is missing: the
 * dispatch stops, saying why (the passes themselves are tested in integration/work-dispatch).
 */
let rows: Rows;
let dispatcher: Dispatcher;
afterEach(async () => {
  await dispatcher.shutdown();
  rows.close();
});

function setup() {
  rows = new Rows();
  const none = () => Promise.reject(new Error("nothing starts here"));
  dispatcher = new Dispatcher({ root: rows.dir, stateDir: join(rows.dir, ".troupe"), store: rows.store, bus: rows.bus, log: rows.log, modes: { start: none, hosted: () => { throw new Error("nothing runs on a host here"); } }, agents: { resumeWith: none }, taskMinutes: () => undefined });
  rows.store.initiatives.insert({ id: "in_1", name: "Auth", slug: "auth", goal: "log in", baseRef: "main", baseCommit: "0".repeat(40), branch: "troupe/auth", review: "phases", budgetUsd: null, permissions: null });
}

/** Dispatching, as the store holds it (set behind the dispatcher's back: no event says so). */
const dispatching = () => rows.store.initiatives.update("in_1", { dispatch: { concurrency: 1, provider: "generic", model: null, command: "true", startedAt: Date.now() } });
const idle = () => (dispatcher as unknown as { loop: unknown }).loop === null;

test("a run's end runs a pass: what the store says now is settled", async () => {
  setup();
  dispatcher.start();
  await waitFor("the start's pass", idle);
  dispatching();
  dispatcher.runEnded();
  await waitFor("the dispatch stopped by the pass", () => rows.store.initiatives.get("in_1")?.dispatch === null);
  expect(readFileSync(rows.logPath, "utf8")).toContain("dispatch of auth stops: initiative auth's dispatch environment");
});

test("after its shutdown a run's end runs no pass", async () => {
  setup();
  dispatcher.start();
  await waitFor("the start's pass", idle);
  await dispatcher.shutdown();
  dispatching();
  dispatcher.runEnded();
  await new Promise((r) => setImmediate(r));
  expect(idle()).toBe(true);
  expect(rows.store.initiatives.get("in_1")?.dispatch).not.toBeNull();
});

test("a conflict's resume recorded but never started (the daemon died in between) is started by the next pass", async () => {
  rows = new Rows();
  const resumed: string[] = [];
  const none = () => Promise.reject(new Error("nothing starts here"));
  const resumeWith = async (ref: string, prompt: string) => {
    resumed.push(`${ref}: ${prompt.split("\n")[0]}`);
    return rows.view(ref) as never;
  };
  dispatcher = new Dispatcher({ root: rows.dir, stateDir: join(rows.dir, ".troupe"), store: rows.store, bus: rows.bus, log: rows.log, modes: { start: none, hosted: () => { throw new Error("no host"); } }, agents: { resumeWith }, taskMinutes: () => undefined });
  rows.store.initiatives.insert({ id: "in_1", name: "Auth", slug: "auth", goal: "log in", baseRef: "main", baseCommit: "0".repeat(40), branch: "troupe/auth", review: "phases", budgetUsd: null, permissions: null });
  rows.store.phases.insert({ id: "ph_1", initiativeId: "in_1", slug: "core", title: "Core", content: "", status: "in_progress", proposedBy: null, dependsOn: [] });
  rows.agent("worker", { status: "done", session: 1 }, { branch: "troupe/worker" });
  rows.store.tasks.insert({ id: "tk_1", initiativeId: "in_1", phaseId: "ph_1", slug: "login", title: "Login", description: "", status: "in_progress", proposedBy: null, dependsOn: [] });
  rows.store.tasks.update("tk_1", { agentId: "ag_worker", branch: "troupe/worker", conflicts: ["src/a.ts"], resolveSession: 2 });
  mkdirSync(join(rows.dir, ".troupe", "initiatives", "in_1"), { recursive: true });
  writeFileSync(join(rows.dir, ".troupe", "initiatives", "in_1", "dispatch.json"), JSON.stringify({ env: {}, identity: { name: "Dee", email: "dee@example.invalid" } }));
  dispatching();
  dispatcher.start();
  await waitFor("the resume", () => resumed.length > 0);
  await waitFor("the pass to end", idle);
  expect(resumed).toEqual(["ag_worker: Your branch troupe/worker could not be merged into troupe/auth: other tasks merged there first, and these files conflict:"]);
});
