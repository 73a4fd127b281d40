import { afterEach, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { UncommittedFollower } from "../../../src/agents/cleanup/follow-uncommitted.ts";
import { RecordingResumer, Rows } from "../../support/rows.ts";
import { Sandbox, waitFor } from "../../support/sandbox.ts";

/** The uncommitted-work step of the end-of-run sequence: a real git worktree, agents as rows, resumes recorded. */
let rows: Rows;
let sb: Sandbox;
afterEach(async () => {
  rows.close();
  await sb.close();
});

function setup(resumable = true) {
  rows = new Rows();
  sb = new Sandbox();
  const agents = new RecordingResumer(rows, resumable);
  const follower = new UncommittedFollower({ store: rows.store, bus: rows.bus, log: rows.log, agents });
  rows.agent("otter", { status: "done", session: 1 }, { worktree: sb.dir });
  return { agents, follower };
}

const ended = (session: number) => ({ agent: rows.view("otter"), session, exitCode: 0 });

test("a done run that left changes is resumed once to commit exactly those paths; left again, it is flagged; clean, the flag goes", async () => {
  const { agents, follower } = setup();
  follower.start();
  writeFileSync(join(sb.dir, "notes.txt"), "draft\n");
  follower.runEnded(ended(1));
  await waitFor("the resume to commit", () => agents.resumed.length === 1);
  expect(agents.resumed[0]!.prompt).toContain("notes.txt");
  await waitFor("the asked session recorded", () => rows.store.agents.commitAskedSession("ag_otter") === 2);

  // it ended again without committing: not asked twice, its worktree kept
  rows.store.agents.update("ag_otter", { status: "done" });
  follower.runEnded(ended(2));
  await waitFor("the flag", () => rows.store.agents.get("ag_otter")?.uncommitted === true);
  expect(agents.resumed).toHaveLength(1);

  sb.git("add", ".");
  sb.git("commit", "-q", "-m", "notes");
  follower.runEnded(ended(2));
  await waitFor("the flag cleared", () => rows.store.agents.get("ag_otter")?.uncommitted === false);
  await follower.shutdown();
});

test("an agent that cannot be resumed is flagged at once; before start nothing is checked", async () => {
  const { agents, follower } = setup(false);
  writeFileSync(join(sb.dir, "left.txt"), "x\n");
  follower.runEnded(ended(1));
  await follower.shutdown();
  expect(rows.store.agents.get("ag_otter")?.uncommitted).toBe(false);

  follower.start();
  follower.runEnded(ended(1));
  await follower.shutdown();
  expect(rows.store.agents.get("ag_otter")?.uncommitted).toBe(true);
  expect(agents.resumed).toEqual([]);
});
