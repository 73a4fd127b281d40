import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createStore } from "../../src/store/index.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-reviews-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function storeWithAgent(file: string, warnings: string[]) {
  const store = createStore(join(dir, file), { warn: (m) => warnings.push(m) });
  store.agents.insert({ id: "ag_1", name: "brave-otter", provider: "generic", prompt: "p", command: "true", model: null, permissions: "skip", cwd: dir, worktree: null, branch: null, baseRef: null, signalFile: join(dir, "s.json"), tokenHash: "h" } as never);
  return store;
}

test("a comment is stored and read back whole through REVIEW_COMMENTS: its id from its seq, its context split into the lines before and after", () => {
  const warnings: string[] = [];
  const store = storeWithAgent("a.db", warnings);
  const made = store.reviews.insert({ agentId: "ag_1", file: "src/a.ts", side: "old", line: 12, section: "uncommitted", code: "const x = 1;", before: ["// one", "// two"], after: ["}"], text: "why one?" });
  expect(made).toEqual({
    id: `rc_${made.seq}`,
    seq: made.seq,
    agentId: "ag_1",
    file: "src/a.ts",
    side: "old",
    line: 12,
    section: "uncommitted",
    code: "const x = 1;",
    before: ["// one", "// two"],
    after: ["}"],
    text: "why one?",
    createdAt: made.createdAt,
    updatedAt: made.createdAt,
  });
  expect(store.reviews.get(made.seq)).toEqual(made);
  const second = store.reviews.insert({ ...made, section: null, text: "and this" });
  expect(store.reviews.forAgent("ag_1").map((c) => [c.text, c.section])).toEqual([["why one?", "uncommitted"], ["and this", null]]);
  const edited = store.reviews.setText(made.seq, "why two?")!;
  expect(edited).toMatchObject({ text: "why two?", before: ["// one", "// two"] });
  expect(edited.updatedAt).toBeGreaterThanOrEqual(made.updatedAt);
  expect(store.reviews.setText(second.seq + 100, "none")).toBeNull();
  expect(warnings).toEqual([]);
  store.close();
});

test("a damaged context reads as no lines around the comment, and the damage is reported", () => {
  const warnings: string[] = [];
  const store = storeWithAgent("b.db", warnings);
  const made = store.reviews.insert({ agentId: "ag_1", file: "f", side: "new", line: 1, section: null, code: "x", before: [], after: ["y"], text: "t" });
  store.db.query("UPDATE review_comments SET context_json = '{\"before\": 3}' WHERE seq = ?").run(made.seq);
  expect(store.reviews.get(made.seq)).toMatchObject({ before: [], after: [] });
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(`review comment rc_${made.seq}'s context is malformed`);
  store.close();
});
