import { afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { WorktreeReaper } from "../../../src/agents/cleanup/reaper.ts";
import { worktreeConfig } from "../../../src/workspace-config.ts";
import { Rows } from "../../support/rows.ts";
import { Sandbox, waitFor } from "../../support/sandbox.ts";

/** The worktree reaper's step of the end-of-run sequence: a run's end re-arms its timer. Real git, agents as rows. */
let rows: Rows;
let sb: Sandbox;
let reaper: WorktreeReaper;
afterEach(async () => {
  await reaper.shutdown();
  rows.close();
  await sb.close();
});

const DAY_MS = 86_400_000;

function setup() {
  rows = new Rows();
  sb = new Sandbox();
  const wt = join(sb.runtime, "wt-otter");
  sb.git("worktree", "add", "-q", "-b", "troupe/otter", wt);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  reaper = new WorktreeReaper({ ws, store: rows.store, log: rows.log });
  rows.agent("otter", { status: "running", session: 1 }, { worktree: wt, branch: "troupe/otter" });
  // idle past keepDays 300 ms after its end
  const { keepDays } = worktreeConfig(ws.stateDir);
  const end = () => rows.store.agents.update("ag_otter", { status: "done", lastActivityAt: Date.now() - keepDays * DAY_MS + 300 });
  return { wt, end };
}

test("a run's end arms the timer at its worktree's deadline: the idle worktree goes then, its branch stays", async () => {
  const { wt, end } = setup();
  reaper.start(); // a first look: the agent runs, no deadline to wait for
  await waitFor("the first look done", () => (reaper as unknown as { running: unknown }).running === null);
  end();
  reaper.runEnded();
  await waitFor("the worktree reaped", () => !existsSync(wt));
  expect(sb.git("branch", "--list", "troupe/otter")).toContain("troupe/otter");
});
