import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DecisionStore } from "../../src/work/decisions.ts";
import { ModeService } from "../../src/work/modes.ts";
import type { ModeWork } from "../../src/work/work-reader.ts";
import { toAgent } from "../../src/store/agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { Rows } from "../support/rows.ts";

/**
 * The mode outputs' step of the end-of-run sequence (ModeService.runEnded), on a real store and a
 * worktree folder; agents are rows, a failed run is recorded as the agent runtime would.
 */
let rows: Rows;
afterEach(() => rows.close());

function setup() {
  rows = new Rows();
  const failed: { id: string; error: string }[] = [];
  const agents = {
    spawn: () => Promise.reject(new Error("no spawn here")),
    previewModePrompt: () => {
      throw new Error("no prompt here");
    },
    failRun: (id: string, error: string): Agent => {
      failed.push({ id, error });
      return toAgent(rows.store.agents.update(id, { status: "failed", error }));
    },
  };
  const decisions = new DecisionStore(join(rows.dir, ".troupe"), rows.log);
  const modes = new ModeService({ agents, store: rows.store, log: rows.log, decisions, work: {} as ModeWork });
  return { modes, failed, decisions };
}

/** A mode agent ended `done` in session 1, its worktree holding `files` under .troupe/output/. */
function modeRun(name: string, mode: "discuss" | "plan", files: Record<string, string>, worktree = true) {
  const wt = join(rows.dir, "wt", name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(wt, ".troupe", "output", path, ".."), { recursive: true });
    writeFileSync(join(wt, ".troupe", "output", path), text);
  }
  rows.agent(name, { status: "done", session: 1 }, { mode, initiativeId: "in_1", worktree: worktree ? wt : null });
  return { run: { agent: rows.view(name), session: 1, exitCode: 0 }, wt };
}

test("a discuss run that ended done has its decisions imported once, and its outputs moved aside", () => {
  const { modes, failed, decisions } = setup();
  modes.startImports();
  const { run, wt } = modeRun("otter", "discuss", { "decisions/db.md": "---\ntitle: SQLite\n---\nWe use SQLite." });
  modes.runEnded(run);
  expect(decisions.list("in_1").map((d) => d.title)).toEqual(["SQLite"]);
  expect(rows.store.modeImports.has("ag_otter", 1)).toBe(true);
  expect(existsSync(join(wt, ".troupe/output/imported/1-decisions/db.md"))).toBe(true);
  modes.runEnded(run);
  expect(decisions.list("in_1")).toHaveLength(1);
  expect(failed).toEqual([]);
});

test("outputs that cannot be used fail the run, naming why; nothing is imported", () => {
  const { modes, failed } = setup();
  modes.startImports();
  const { run } = modeRun("heron", "plan", {});
  modes.runEnded(run);
  expect(failed).toEqual([{ id: "ag_heron", error: "outputs not imported: the plan holds no phase: .troupe/output/phases/ has no <slug>.md file" }]);
  expect(rows.store.agents.get("ag_heron")?.status).toBe("failed");

  const { run: bare } = modeRun("lynx", "discuss", {}, false);
  modes.runEnded(bare);
  expect(failed.at(-1)).toEqual({ id: "ag_lynx", error: "a discuss run needs a worktree to write its outputs in" });
});

test("a run that did not end done, a plain agent, and any end before startImports import nothing", () => {
  const { modes, failed, decisions } = setup();
  const { run } = modeRun("mole", "discuss", { "decisions/a.md": "---\ntitle: A\n---\nx" });
  modes.runEnded(run);
  modes.startImports();
  rows.store.agents.update("ag_mole", { status: "failed" });
  modes.runEnded({ ...run, agent: rows.view("mole") });
  rows.agent("plain", { status: "done", session: 1 });
  modes.runEnded({ agent: rows.view("plain"), session: 1, exitCode: 0 });
  expect(decisions.list("in_1")).toEqual([]);
  expect(failed).toEqual([]);
});
