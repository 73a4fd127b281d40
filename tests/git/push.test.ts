import { expect, test } from "bun:test";
import { pushError, withoutCredentials } from "../../src/git/push.ts";

test("a rejected push is one line with git's reason; a moved remote branch says so", () => {
  const hook = "To /srv/origin.git\n!\trefs/heads/troupe/x:refs/heads/troupe/x\t[remote rejected] (pre-receive hook declined)\nDone\nerror: failed to push some refs to '/srv/origin.git'";
  expect(pushError("origin", "troupe/x", hook)).toMatchObject({ code: "push_rejected", message: "origin rejected the push of troupe/x (pre-receive hook declined)" });
  const moved = "To github.com:acme/w.git\n!\trefs/heads/troupe/x:refs/heads/troupe/x\t[rejected] (fetch first)\nhint: Updates were rejected";
  expect(pushError("origin", "troupe/x", moved).message).toBe("origin rejected the push of troupe/x (fetch first): origin's troupe/x has commits this one lacks");
});

test("a push that could not reach the remote, or took too long, is push_failed with git's last word", () => {
  const auth = "fatal: could not read Username for 'https://github.com': terminal prompts disabled";
  expect(pushError("origin", "troupe/x", auth)).toMatchObject({ code: "push_failed", message: "pushing troupe/x to origin failed: could not read Username for 'https://github.com': terminal prompts disabled" });
  expect(pushError("origin", "troupe/x", "block timeout reached").message).toBe("pushing troupe/x to origin took too long and was ended");
});

test("a remote's URL is shown without the credentials it may carry", () => {
  expect(withoutCredentials("https://x-access-token:ghp_abc@github.com/acme/w.git")).toBe("https://github.com/acme/w.git");
  expect(withoutCredentials("git@github.com:acme/w.git")).toBe("git@github.com:acme/w.git");
});

test("a push from a caller inside another repository (a hook's GIT_DIR) pushes the workspace's branch, the commit it reports", async () => {
  const { execFileSync } = await import("node:child_process");
  const { mkdtempSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { pushBranch } = await import("../../src/git/push.ts");
  const dir = mkdtempSync(join(tmpdir(), "troupe-push-"));
  const id = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };
  const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: { ...process.env, ...id }, encoding: "utf8" }).trim();
  try {
    for (const name of ["work", "other"]) {
      execFileSync("git", ["init", "-q", "-b", "main", join(dir, name)]);
      git(join(dir, name), "commit", "-q", "--allow-empty", "-m", name);
    }
    execFileSync("git", ["init", "-q", "--bare", join(dir, "origin.git")]);
    git(join(dir, "work"), "remote", "add", "origin", join(dir, "origin.git"));
    const env = { PATH: process.env.PATH!, HOME: dir, GIT_DIR: join(dir, "other", ".git"), GIT_WORK_TREE: join(dir, "other") };
    const commit = await pushBranch(join(dir, "work"), "origin", "main", env);
    expect(commit).toBe(git(join(dir, "work"), "rev-parse", "main"));
    expect(git(join(dir, "origin.git"), "log", "--format=%s", "main")).toBe("work");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
