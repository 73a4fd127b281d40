import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { modeInputFiles } from "../../src/work/input-files.ts";
import { writeInput } from "../../src/agents/files/input-folder.ts";
import type { Initiative, Phase, Task } from "../../src/protocol/work.ts";

const now = 1_700_000_000_000;
export const initiative: Initiative = {
  id: "in_1", name: "Sessions", slug: "sessions", goal: "# Goal\n\nSessions survive restarts.", proposedGoal: null, status: "active", baseRef: "main", baseCommit: "0".repeat(40),
  branch: "troupe-initiative/sessions", review: "phases", dispatch: null, budgetUsd: null, spentUsd: 0, reason: null, permissions: null, prUrl: null, version: 1, createdAt: now, updatedAt: now,
};
const ph = (id: string, slug: string, dependsOn: string[], status: Phase["status"] = "approved"): Phase => ({
  id, initiativeId: "in_1", slug, title: `Phase ${slug}`, content: `Content of ${slug}.`, status, dependsOn, proposedBy: null, reason: null, pin: null, version: 1, createdAt: now, updatedAt: now,
});
const tk = (id: string, slug: string, status: Task["status"], dependsOn: string[] = [], summary: string | null = null): Task => ({
  id, initiativeId: "in_1", phaseId: "ph_b", slug, title: `Task ${slug}`, description: `Do ${slug}.`, status, dependsOn, proposedBy: null,
  agentId: null, branch: summary ? `troupe/${slug}` : null, summary, reason: null, conflicts: null, files: null, waiting: null, host: null, placement: null, pin: null, lostRuns: [], mergedAt: null, version: 1, createdAt: now, updatedAt: now,
});
export const phases = [ph("ph_a", "store", []), ph("ph_b", "api", ["ph_a"]), ph("ph_c", "dropped", [], "rejected")];
export const tasks = [tk("tk_1", "schema", "completed", [], "Added migration 7."), tk("tk_2", "routes", "pending", ["tk_1"]), tk("tk_3", "docs", "in_progress")];

const split = (content: string) => {
  const m = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(content)!;
  return { fm: parse(m[1]!) as Record<string, unknown>, body: m[2]! };
};

test("plan: the goal and the other phases (not rejected ones); dependencies as slugs", () => {
  const files = modeInputFiles({ mode: "plan", initiative, phases, tasks: [], decisions: [{ slug: "db", title: "SQLite", body: "Use SQLite." }] });
  expect(files.map((f) => f.path)).toEqual(["initiative.md", "context/phases/store.md", "context/phases/api.md", "context/decisions/db.md"]);
  expect(split(files[0]!.content)).toEqual({ fm: { id: "in_1", title: "Sessions", dependsOn: [], slug: "sessions", branch: "troupe-initiative/sessions" }, body: "# Goal\n\nSessions survive restarts.\n" });
  expect(split(files[2]!.content).fm).toEqual({ id: "ph_b", title: "Phase api", dependsOn: ["store"], slug: "api", status: "approved" });
});

test("execute: initiative, phase, task; the other phases; the completed tasks of the phase with their summaries", () => {
  const files = modeInputFiles({ mode: "execute", initiative, phase: phases[1], task: tasks[1], phases, tasks, decisions: [] });
  expect(files.map((f) => f.path)).toEqual(["initiative.md", "phase.md", "task.md", "context/phases/store.md", "context/tasks/schema.md"]);
  const task = split(files[2]!.content);
  expect(task.fm).toEqual({ id: "tk_2", title: "Task routes", dependsOn: ["schema"], slug: "routes", status: "pending" });
  expect(task.body).toBe("Do routes.\n");
  const done = split(files[4]!.content);
  expect(done.fm.branch).toBe("troupe/schema");
  expect(done.body).toBe("Do schema.\n\n## What its agent reported\n\nAdded migration 7.\n");
});

test("written whole into the input folder, the manifest last, nothing outside it", () => {
  const dir = mkdtempSync(join(tmpdir(), "troupe-input-"));
  try {
    const files = modeInputFiles({ mode: "detail", initiative, phase: phases[1], phases, tasks, decisions: [] });
    writeInput(dir, "the prompt", { agentId: "ag_1", files: files.map((f) => f.path) }, files);
    expect(readFileSync(join(dir, "context/tasks/schema.md"), "utf8")).toContain("Added migration 7.");
    expect(JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).files).toEqual(["initiative.md", "phase.md", "context/phases/store.md", "context/tasks/schema.md"]);
    expect(() => writeInput(dir, "p", {}, [{ path: "../escape.md", content: "x" }])).toThrow("would leave the input folder");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
