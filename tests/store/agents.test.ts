import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../src/store/index.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a damaged JSON column reads as its default and is reported, never silently", () => {
  const warnings: string[] = [];
  const store = createStore(join(dir, "troupe.db"), { warn: (msg) => void warnings.push(msg) });
  store.agents.insert({
    id: "ag_1", name: "brave-otter", provider: "generic", prompt: null, command: "true", model: null, cwd: dir,
    worktree: null, branch: null, baseRef: null, permissions: "skip", tokenHash: "h", signalFile: join(dir, "s.json"),
  });
  // an environment an older troupe kept in the store, damaged before it was moved out
  store.db.query("UPDATE agents SET env_json = '{not json', legacy_env = 1, questions_json = '[{\"id\": 3}]' WHERE id = 'ag_1'").run();
  const rec = store.agents.get("ag_1")!;
  expect(rec.questions).toEqual([]);
  expect(store.agents.legacyEnvs()).toEqual([{ id: "ag_1", name: "brave-otter", env: null }]);
  expect(warnings).toEqual([
    expect.stringMatching(/^agent brave-otter's questions is malformed \(.+\); read as \[\]$/),
    "agent brave-otter's stored environment is not JSON; read as null",
  ]);
  store.db.query("INSERT INTO events (type, payload, created_at) VALUES ('agent:removed', 'oops', 0)").run();
  expect(store.events.since(0)).toEqual([]);
  expect(warnings.at(-1)).toMatch(/^event \d+ is not JSON; not replayed$/);
  store.close();
});

test("an agent's pull request URL (migration 27) is null until kept, then read back", () => {
  const store = createStore(join(dir, "pr.db"), { warn: () => undefined });
  store.agents.insert({
    id: "ag_2", name: "calm-yak", provider: "generic", prompt: null, command: "true", model: null, cwd: dir,
    worktree: null, branch: "troupe/calm-yak", baseRef: "main", permissions: "skip", tokenHash: "h2", signalFile: join(dir, "s2.json"),
  });
  expect(store.agents.get("ag_2")!.prUrl).toBeNull();
  expect(store.agents.update("ag_2", { prUrl: "https://github.com/acme/app/pull/7" }).prUrl).toBe("https://github.com/acme/app/pull/7");
  store.close();
});
