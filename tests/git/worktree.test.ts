import { afterEach, expect, test } from "bun:test";
import { createWorktree, removeWorktree } from "../../src/git/worktree.ts";
import { Sandbox } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(() => sb?.close());

test("worktrees made and removed at once in one repository all succeed (git alone races on its admin folder)", async () => {
  sb = new Sandbox();
  // several bursts: without the lock, each has a good chance of a "failed to read .git/worktrees/<x>/commondir"
  for (let round = 0; round < 4; round++) {
    const names = Array.from({ length: 16 }, (_, i) => `r${round}n${i}`);
    const made = await Promise.all(names.map((n) => createWorktree(sb.dir, n)));
    expect(made.map((w) => w.branch)).toEqual(names.map((n) => `troupe/${n}`));
    await Promise.all(made.map((w) => removeWorktree(sb.dir, w.path)));
  }
  expect(sb.git("worktree", "list").trim().split("\n")).toHaveLength(1);
}, 60_000);
