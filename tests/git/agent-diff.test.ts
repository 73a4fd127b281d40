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
  test("the branch against its base, then what the worktree has not committed, each line with its numbers", async () => {
    const agent: DiffSubject = { name: "fixer", branch: "troupe/fixer", baseRef: "main", worktree: join(root, "wt"), cwd: join(root, "wt") };
    const lines = await agentDiff(agent, root);
    const texts = lines.map((l) => l.text);
    const committed = texts.indexOf("── committed on troupe/fixer since main ──");
    const uncommitted = texts.findIndex((l) => l.startsWith("── uncommitted in"));
    expect(committed).toBe(0);
    expect(uncommitted).toBeGreaterThan(committed);
    expect(lines.slice(committed, uncommitted)).toContainEqual({ text: "+two", kind: "add", section: "committed", file: "a.txt", new: 2 });
    expect(lines.slice(uncommitted)).toContainEqual({ text: "+three (not committed)", kind: "add", section: "uncommitted", file: "a.txt", new: 3 });
    expect(lines.slice(uncommitted)).toContainEqual({ text: " two", kind: "context", section: "uncommitted", file: "a.txt", old: 2, new: 2 });
  });

  test("the user's git config does not change the lines (prefixes, colour)", async () => {
    git(root, "config", "diff.mnemonicPrefix", "true");
    git(root, "config", "color.diff", "always");
    try {
      const lines = await agentDiff({ name: "fixer", branch: "troupe/fixer", baseRef: "main", worktree: join(root, "wt"), cwd: join(root, "wt") }, root);
      expect(lines).toContainEqual({ text: "+two", kind: "add", section: "committed", file: "a.txt", new: 2 });
    } finally {
      git(root, "config", "--unset", "diff.mnemonicPrefix");
      git(root, "config", "--unset", "color.diff");
    }
  });

  test("an agent without a worktree shows the folder's uncommitted changes", async () => {
    writeFileSync(join(root, "a.txt"), "one\nchanged\n");
    const lines = await agentDiff({ name: "loose", branch: null, baseRef: null, worktree: null, cwd: root }, root);
    expect(lines[0]!.text).toStartWith("── uncommitted in");
    expect(lines.map((l) => l.text)).toContain("+changed");
  });
});
