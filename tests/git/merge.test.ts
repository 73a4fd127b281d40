import { afterEach, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { captureIdentity, InitiativeMerger, parseIdent } from "../../src/git/merge.ts";
import { Sandbox } from "../support/sandbox.ts";

const who = { name: "Dee Spatcher", email: "dee@example.invalid" };
let sb: Sandbox;
afterEach(() => sb?.close());

/** A repo with an initiative branch and task branches made from it, each committing `files`. */
function repo(): { merger: InitiativeMerger; branch: (name: string, files: Record<string, string>, from?: string) => void } {
  sb = new Sandbox();
  sb.git("branch", "troupe-initiative/shop", "main");
  const branch = (name: string, files: Record<string, string>, from = "troupe-initiative/shop") => {
    sb.git("checkout", "-q", "-b", name, from);
    for (const [f, content] of Object.entries(files)) writeFileSync(join(sb.dir, f), content);
    sb.git("add", ...Object.keys(files));
    sb.git("commit", "-q", "-m", `${name} work`);
    sb.git("checkout", "-q", "main");
  };
  return { merger: new InitiativeMerger(sb.dir, "shop", "troupe-initiative/shop"), branch };
}

describe("InitiativeMerger", () => {
  test("merges --no-ff as the given identity, in its own worktree, never the person's checkout", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "a.txt": "a\n" });
    const out = await merger.merge("troupe/a", who, "Merge task a");
    expect(out.kind).toBe("merged");
    const commit = out.kind === "merged" ? out.commit : "";
    expect(sb.git("rev-parse", "troupe-initiative/shop").trim()).toBe(commit);
    // a merge commit with two parents, by the dispatcher
    expect(sb.git("rev-list", "--parents", "-n1", commit).trim().split(" ")).toHaveLength(3);
    expect(sb.git("log", "-1", "--format=%an <%ae>|%cn <%ce>|%s", commit).trim()).toBe(
      "Dee Spatcher <dee@example.invalid>|Dee Spatcher <dee@example.invalid>|Merge task a",
    );
    expect(sb.git("symbolic-ref", "--short", "HEAD").trim()).toBe("main");
    expect(sb.git("status", "--porcelain", "--", ":!.troupe").trim()).toBe("");
    expect(merger.path).toBe(join(sb.dir, ".troupe", "worktrees", "_initiative-shop"));
  });

  test("a branch merged already is not merged again, and its merge commit is found", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "a.txt": "a\n" });
    const first = await merger.merge("troupe/a", who, "Merge a");
    const again = await merger.merge("troupe/a", who, "Merge a");
    expect(again).toEqual({ kind: "already", commit: first.kind === "merged" ? first.commit : "?" });
    expect(sb.git("rev-list", "--count", "--merges", "troupe-initiative/shop").trim()).toBe("1");
  });

  test("merges with signing on in the repo's config, without a prompt", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "a.txt": "a\n" });
    sb.git("config", "commit.gpgsign", "true");
    sb.git("config", "gpg.program", "/nonexistent/gpg");
    expect((await merger.merge("troupe/a", who, "Merge a")).kind).toBe("merged");
  });

  test("a conflict is aborted and named; both branches stay as they were", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "README.md": "from a\n", "a.txt": "a\n" });
    branch("troupe/b", { "README.md": "from b\n" });
    await merger.merge("troupe/a", who, "Merge a");
    const before = { init: sb.git("rev-parse", "troupe-initiative/shop"), b: sb.git("rev-parse", "troupe/b") };
    expect(await merger.merge("troupe/b", who, "Merge b")).toEqual({ kind: "conflict", files: ["README.md"] });
    expect(sb.git("rev-parse", "troupe-initiative/shop")).toBe(before.init);
    expect(sb.git("rev-parse", "troupe/b")).toBe(before.b);
    expect(sb.git("-C", merger.path, "status", "--porcelain").trim()).toBe("");
  });

  test("a half-done merge a crash left in the worktree is aborted before the next one", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "README.md": "from a\n" });
    branch("troupe/b", { "README.md": "from b\n" });
    branch("troupe/c", { "c.txt": "c\n" });
    await merger.merge("troupe/a", who, "Merge a");
    // what a daemon killed inside `git merge` leaves: MERGE_HEAD and conflict markers
    Bun.spawnSync(["git", "-C", merger.path, "merge", "--no-ff", "--no-edit", "troupe/b"], { env: sb.env });
    // the next daemon's merger
    const next = new InitiativeMerger(sb.dir, "shop", "troupe-initiative/shop");
    expect(await next.merge("troupe/c", who, "Merge c")).toMatchObject({ kind: "merged" });
    expect(sb.git("show", "troupe-initiative/shop:README.md")).toBe("from a\n");
    expect(sb.git("show", "troupe-initiative/shop:c.txt")).toBe("c\n");
  });

  test("refuses, naming the branch, when the initiative branch is checked out elsewhere", async () => {
    const { merger, branch } = repo();
    branch("troupe/a", { "a.txt": "a\n" });
    sb.git("checkout", "-q", "troupe-initiative/shop");
    await expect(merger.merge("troupe/a", who, "Merge a")).rejects.toThrow(/cannot check out troupe-initiative\/shop/);
  });
});

describe("identity", () => {
  test("parses git's ident line", () => {
    expect(parseIdent("Dee Spatcher <dee@example.invalid> 1700000000 +0000\n")).toEqual(who);
    expect(parseIdent("nobody")).toBeNull();
  });

  test("is what git would use in the person's environment", async () => {
    sb = new Sandbox();
    // an EDITOR, a PAGER and askpass helpers, as a person's shell has them, change nothing
    const env = { ...sb.env, GIT_COMMITTER_NAME: "Dee Spatcher", GIT_COMMITTER_EMAIL: "dee@example.invalid", EDITOR: "vim", PAGER: "less", GIT_ASKPASS: "/bin/true" };
    expect(await captureIdentity(sb.dir, env)).toEqual(who);
  });

  test("an unknown identity is refused with what to set", async () => {
    sb = new Sandbox();
    const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: sb.runtime, GIT_CONFIG_NOSYSTEM: "1" };
    await expect(captureIdentity(sb.dir, env)).rejects.toThrow(/set user.name and user.email/);
  });
});
