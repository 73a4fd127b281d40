import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveWorkspace } from "../src/workspace.ts";

const top = realpathSync(mkdtempSync(join(tmpdir(), "troupe-root-")));
afterAll(() => rmSync(top, { recursive: true, force: true }));
const env = { TROUPE_WORKSPACE: process.env.TROUPE_WORKSPACE };
delete process.env.TROUPE_WORKSPACE;
afterAll(() => env.TROUPE_WORKSPACE !== undefined && (process.env.TROUPE_WORKSPACE = env.TROUPE_WORKSPACE));

test("an empty .git folder above (Codex's sandbox leaves one in /tmp) makes no workspace; a repository's .git and a worktree's .git file do", () => {
  const stray = join(top, "stray");
  mkdirSync(join(stray, ".git", "info"), { recursive: true });
  mkdirSync(join(stray, "plain"));
  expect(resolveWorkspace({ cwd: join(stray, "plain") })).toMatchObject({ root: join(stray, "plain"), unclaimed: true });

  const repo = join(top, "repo");
  mkdirSync(join(repo, ".git"), { recursive: true });
  writeFileSync(join(repo, ".git", "HEAD"), "ref: refs/heads/main\n");
  mkdirSync(join(repo, "src"));
  const inRepo = resolveWorkspace({ cwd: join(repo, "src") });
  expect(inRepo.root).toBe(repo);
  expect(inRepo.unclaimed).toBeUndefined();

  const worktree = join(top, "wt");
  mkdirSync(worktree);
  writeFileSync(join(worktree, ".git"), `gitdir: ${repo}/.git/worktrees/wt\n`);
  expect(resolveWorkspace({ cwd: worktree }).root).toBe(worktree);
});
