import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../src/store/index.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-sessions-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a session records one signal: the same again is no change, another is refused (the first stands), an ended one takes none", () => {
  const store = createStore(join(dir, "troupe.db"), { warn: () => {} });
  store.agents.insert({
    id: "ag_1", name: "brave-otter", provider: "generic", prompt: null, command: "true", model: null, cwd: dir,
    worktree: null, branch: null, baseRef: null, permissions: "skip", tokenHash: "h", signalFile: join(dir, "s.json"),
  });
  const files = { stdoutPath: join(dir, "1.out"), stderrPath: join(dir, "1.err"), exitPath: join(dir, "1.exit"), marker: "m" };
  store.sessions.insert({ agentId: "ag_1", session: 1, ...files });
  const done = '{"status":"done","result":"first"}';
  expect(store.sessions.recordSignal("ag_1", 1, done)).toEqual({ kind: "recorded" });
  expect(store.sessions.recordSignal("ag_1", 1, done)).toEqual({ kind: "same" });
  expect(store.sessions.recordSignal("ag_1", 1, '{"status":"error","error":"second"}')).toEqual({ kind: "taken", first: done });
  expect(store.sessions.get("ag_1", 1)).toMatchObject({ signalJson: done, signalFromFile: false });
  // a record whose file could not be written is taken back; another may then be recorded
  store.sessions.forgetSignal("ag_1", 1, done);
  expect(store.sessions.get("ag_1", 1)!.signalJson).toBeNull();
  store.sessions.end("ag_1", 1, 0);
  expect(store.sessions.recordSignal("ag_1", 1, done)).toEqual({ kind: "ended" });
  expect(store.sessions.recordSignal("ag_1", 9, done)).toEqual({ kind: "ended" });
  store.close();
});
