import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { agentDiff, type DiffSubject } from "../../src/git/agent-diff.ts";

const ENV = { GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t.invalid" };
let root: string;
const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: { ...process.env, ...ENV } });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
};

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "troupe-diff-")));
  git(root, "init", "-q", "-b", "main");
  writeFileSync(join(root, "a.txt"), "one\n");
  git(root, "add", ".");
  git(root, "commit", "-qm", "base");
  git(root, "worktree", "add", "-q", "-b", "troupe/fixer", join(root, "wt"));
  writeFileSync(join(root, "wt", "a.txt"), "one\ntwo\n");
  git(join(root, "wt"), "commit", "-qam", "two");
  writeFileSync(join(root, "wt", "a.txt"), "one\ntwo\nthree (not committed)\n");
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("agentDiff", () => {
  test("the branch against its base, then what the worktree has not committed", async () => {
    const agent: DiffSubject = { name: "fixer", branch: "troupe/fixer", baseRef: "main", worktree: join(root, "wt"), cwd: join(root, "wt") };
    const lines = await agentDiff(agent, root);
    const committed = lines.indexOf("── committed on troupe/fixer since main ──");
    const uncommitted = lines.findIndex((l) => l.startsWith("── uncommitted in"));
    expect(committed).toBe(0);
    expect(uncommitted).toBeGreaterThan(committed);
    expect(lines.slice(committed, uncommitted)).toContain("+two");
    expect(lines.slice(uncommitted)).toContain("+three (not committed)");
  });

  test("an agent without a worktree shows the folder's uncommitted changes", async () => {
    writeFileSync(join(root, "a.txt"), "one\nchanged\n");
    const lines = await agentDiff({ name: "loose", branch: null, baseRef: null, worktree: null, cwd: root }, root);
    expect(lines[0]).toStartWith("── uncommitted in");
    expect(lines).toContain("+changed");
  });
});
