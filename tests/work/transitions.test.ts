import { describe, expect, test } from "bun:test";
import { INITIATIVE_TRANSITIONS, PHASE_TRANSITIONS, TASK_TRANSITIONS, assertTransition, canTransition } from "../../src/work/transitions.ts";
import { PhaseStatusSchema, TaskStatusSchema, InitiativeStatusSchema } from "../../src/protocol/work.ts";

describe("status transitions", () => {
  test("every status has a row, and every target is a status", () => {
    for (const [table, schema] of [
      [PHASE_TRANSITIONS, PhaseStatusSchema],
      [TASK_TRANSITIONS, TaskStatusSchema],
      [INITIATIVE_TRANSITIONS, InitiativeStatusSchema],
    ] as const) {
      expect(Object.keys(table).sort()).toEqual([...schema.options].sort());
      for (const targets of Object.values(table)) for (const t of targets) expect(schema.options as readonly string[]).toContain(t);
    }
  });

  const allowed: [string, boolean][] = [
    ["phase proposed→approved", canTransition("phase", "proposed", "approved")],
    ["phase proposed→rejected", canTransition("phase", "proposed", "rejected")],
    ["phase rejected→proposed (a revised proposal)", canTransition("phase", "rejected", "proposed")],
    ["task proposed→pending", canTransition("task", "proposed", "pending")],
    ["task blocked→pending (retry)", canTransition("task", "blocked", "pending")],
    ["task failed→pending (retry)", canTransition("task", "failed", "pending")],
    ["initiative active→archived", canTransition("initiative", "active", "archived")],
  ];
  const refused: [string, boolean][] = [
    ["phase completed→anything", canTransition("phase", "completed", "approved")],
    ["phase approved→proposed", canTransition("phase", "approved", "proposed")],
    ["task completed→pending", canTransition("task", "completed", "pending")],
    ["task pending→completed (skipping the run)", canTransition("task", "pending", "completed")],
    ["initiative archived→active", canTransition("initiative", "archived", "active")],
  ];
  for (const [name, ok] of allowed) test(`allowed: ${name}`, () => expect(ok).toBe(true));
  for (const [name, ok] of refused) test(`refused: ${name}`, () => expect(ok).toBe(false));

  test("a refusal says what the item is and what it may become", () => {
    expect(() => assertTransition("task", "login", "completed", "pending")).toThrow("task login is completed; it cannot become pending (completed is final)");
    expect(() => assertTransition("phase", "api", "approved", "rejected")).toThrow("phase api is approved; it cannot become rejected (from approved it may become in_progress or blocked)");
  });
});
