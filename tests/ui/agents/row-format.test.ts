import { describe, expect, test } from "bun:test";
import { displayWidth } from "../../../src/output/text.ts";
import { elapsedChangesIn, formatElapsed, nextElapsedChange, rowCells, rowColumns } from "../../../src/ui/agents/row-format.ts";
import { listTop } from "../../../src/ui/kit/list-top.ts";
import { layout } from "../../../src/ui/kit/layout.ts";
import { makeAgent } from "../helpers/fake-client.ts";
import { SANDBOX_NOT_STARTED } from "../../../src/protocol/sandbox.ts";
import type { Agent } from "../../../src/protocol/entities.ts";

describe("agent rows", () => {
  test("a worker's tree glyphs take at most half the name's column, the deepest levels kept", () => {
    const cols = rowColumns(80);
    const a = makeAgent({ name: "deep-worker" });
    expect(cols.name).toBe(16);
    expect(rowCells(a, cols, a.createdAt, "└ ").name).toBe("└ deep-worker   ");
    expect(rowCells(a, cols, a.createdAt, "│ │   │ └ ").name).toBe("│   │ └ deep-wo…");
    expect(displayWidth(rowCells(a, rowColumns(30), a.createdAt, "│ │ └ ").name)).toBe(rowColumns(30).name);
  });

  test("columns drop out as the list narrows, never exceeding the width", () => {
    for (const w of [30, 40, 50, 64, 80, 120]) {
      const c = rowColumns(w);
      const used = 6 + c.name + 1 + c.status + 1 + c.elapsed + (c.cost ? c.cost + 1 : 0) + (c.provider ? c.provider + 1 : 0) + (c.what ? c.what + 1 : 0);
      expect(used).toBeLessThanOrEqual(w + 1);
    }
    expect(rowColumns(40).provider).toBe(0);
    expect(rowColumns(80).what).toBeGreaterThan(10);
  });

  test("long names and prompts are cut to their columns", () => {
    const a = makeAgent({ name: "a-very-long-agent-name-indeed", prompt: "do\nthe thing that is long ".repeat(5), costUsd: 1.5 });
    const cols = rowColumns(80);
    const c = rowCells(a, cols, a.createdAt + 90_000);
    expect(displayWidth(c.name)).toBe(cols.name);
    expect(c.name.endsWith("…")).toBe(true);
    expect(c.what).not.toContain("\n");
    expect(displayWidth(c.what)).toBe(cols.what);
    expect(c.elapsed.trim()).toBe("1m");
    expect(c.cost.trim()).toBe("$1.50");
  });

  test("an agent with a plan shows how far it got and the step under way before its task", () => {
    const cols = rowColumns(120);
    const plan = [{ content: "Read the code", status: "completed" as const }, { content: "Write\nthe fix", status: "in_progress" as const }, { content: "Test", status: "pending" as const }];
    expect(rowCells(makeAgent({ prompt: "Fix the bug", plan }), cols, Date.now()).what.trim()).toBe("[plan 1/3: Write the fix] Fix the bug");
    expect(rowCells(makeAgent({ prompt: "Fix the bug", plan: plan.map((e) => ({ ...e, status: "completed" as const })) }), cols, Date.now()).what.trim()).toBe("[plan 3/3] Fix the bug");
    expect(rowCells(makeAgent({ prompt: "Fix the bug", plan: [] }), cols, Date.now()).what.trim()).toBe("Fix the bug");
  });

  test("its sandbox shows only where it is not the default: unsandboxed, or with the network closed", () => {
    const cols = rowColumns(120);
    const what = (sandbox: Agent["sandbox"]) => rowCells(makeAgent({ prompt: "Fix the bug", sandbox }), cols, Date.now()).what.trim();
    expect(what({ sandboxed: true, mode: "auto", network: "all", note: null })).toBe("Fix the bug");
    expect(what({ sandboxed: false, mode: "off", network: "all", note: "sandbox mode off" })).toBe("[unsandboxed] Fix the bug");
    expect(what({ sandboxed: false, mode: "auto", network: "all", note: "bubblewrap (bwrap) is not installed" })).toBe("[unsandboxed] Fix the bug");
    expect(what({ sandboxed: true, mode: "strict", network: "none", note: null })).toBe("[network none] Fix the bug");
    expect(what({ sandboxed: true, mode: "auto", network: "allow", note: null })).toBe("[network allow] Fix the bug");
    // before its first session, and an agent from before sandboxes: nothing to say yet
    expect(what({ sandboxed: false, mode: "auto", network: "all", note: SANDBOX_NOT_STARTED })).toBe("Fix the bug");
    expect(what(null)).toBe("Fix the bug");
  });

  test("the ports its worktree holds lead its task; none, nothing", () => {
    const cols = rowColumns(120);
    expect(rowCells(makeAgent({ prompt: "Fix the bug", ports: [3000, 3001] }), cols, Date.now()).what.trim()).toBe("[:3000,3001] Fix the bug");
    expect(rowCells(makeAgent({ prompt: "Fix the bug", ports: [] }), cols, Date.now()).what.trim()).toBe("Fix the bug");
  });

  test("a pending retry shows its class and the next attempt; a failed agent its class and evidence", () => {
    const now = Date.now();
    const failure = { class: "overloaded" as const, evidence: "API Error: 529 Overloaded", attempt: 1, maxAttempts: 3 };
    const cols = rowColumns(120);
    const waiting = makeAgent({ status: "starting", prompt: "the task", failure, retryAt: now + 3_200 });
    expect(rowCells(waiting, cols, now).what.trim()).toBe("overloaded · attempt 2/3 in 4s");
    const failed = makeAgent({ status: "failed", prompt: "the task", failure: { ...failure, attempt: 3 }, retryAt: null });
    expect(rowCells(failed, cols, now).what.trim()).toBe("overloaded: API Error: 529 Overloaded");
    // a retry under way shows its task again
    const running = makeAgent({ status: "running", prompt: "the task", failure, retryAt: null, attempt: 2 });
    expect(rowCells(running, cols, now).what.trim()).toBe("the task");
  });

  test("elapsed time reads short", () => {
    expect(formatElapsed(5_000)).toBe("5s");
    expect(formatElapsed(125_000)).toBe("2m");
    expect(formatElapsed(3 * 3600_000)).toBe("3h");
    expect(formatElapsed(50 * 3600_000)).toBe("2d");
  });

  test("the next redraw for elapsed times comes when the first shown text would change", () => {
    const now = 1_800_000_000_000;
    const at = (ms: number, status: "running" | "done" = "running") => makeAgent({ status, createdAt: now - ms, updatedAt: now - ms + 1000 });
    // "11s" changes in 0.3 s, "3m" (3m 20.5s) at 4m, "2h" (2h 10m) at 3h
    expect(elapsedChangesIn(11_700)).toBe(300);
    expect(elapsedChangesIn(200_500)).toBe(39_500);
    expect(elapsedChangesIn(2 * 3600_000 + 600_000)).toBe(3000_000);
    expect(formatElapsed(200_500 + 39_500)).toBe("4m");
    expect(formatElapsed(200_500 + 39_499)).toBe("3m");
    // 59.4 s reads "59s", then "1m": a second's precision until the minute
    expect(elapsedChangesIn(59_400)).toBe(600);
    // a clock behind the daemon's shows "0s" until the agent is a second old
    expect(elapsedChangesIn(-2_000)).toBe(3_000);
    // the soonest of the rows; finished agents' times stand still
    expect(nextElapsedChange([at(200_500), at(2 * 3600_000 + 600_000)], now)).toBe(39_500);
    expect(nextElapsedChange([at(200_500), at(11_700)], now)).toBe(300);
    expect(nextElapsedChange([at(11_700, "done"), at(2 * 3600_000 + 600_000)], now)).toBe(3000_000);
    expect(nextElapsedChange([at(11_700, "done")], now)).toBeNull();
    expect(nextElapsedChange([], now)).toBeNull();
  });

  test("minute displays that change within two seconds of each other are redrawn once, never past a seconds display's change", () => {
    const now = 1_800_000_000_000;
    const at = (ms: number) => makeAgent({ status: "running", createdAt: now - ms, updatedAt: now - ms });
    // agents started 0.5 s apart, all "3m": one redraw once the last of them reads "4m"
    const spawned = [200_500, 200_000, 199_500, 199_000];
    expect(nextElapsedChange(spawned.map(at), now)).toBe(41_000);
    expect(spawned.map((ms) => formatElapsed(ms + 41_000))).toEqual(["4m", "4m", "4m", "4m"]);
    // one started 10 s later changes at its own time, not with them
    expect(nextElapsedChange([at(200_500), at(190_500)], now)).toBe(39_500);
    // "59s" turning "1m" gathers a "2m" turning "3m" 0.9 s later, unless a "10s" changes between them
    expect(nextElapsedChange([at(59_400), at(178_500)], now)).toBe(1_500);
    expect(nextElapsedChange([at(59_400), at(178_500), at(10_000)], now)).toBe(600);
  });

  test("rows under a minute old, started at every phase of a second, are redrawn together about once a second", () => {
    const t0 = 1_800_000_000_000;
    // 49 agents started 20 ms apart: each "Ns" display changes at its own phase within the second
    const rows = Array.from({ length: 49 }, (_, i) => makeAgent({ id: `ag_${i}`, status: "running", createdAt: t0 - 1_000 - i * 20, updatedAt: t0 }));
    let now = t0;
    const drawn = new Map<string, string>();
    let redraws = 0;
    while (now < t0 + 10_000) {
      now += nextElapsedChange(rows, now)!;
      redraws++;
      for (const a of rows) {
        const shown = formatElapsed(now - a.createdAt);
        // each row's display moves on by one second at a time: none is skipped or more than a second late
        const before = drawn.get(a.id);
        if (before !== undefined) expect(Number.parseInt(shown) - Number.parseInt(before)).toBeLessThanOrEqual(1);
        drawn.set(a.id, shown);
      }
    }
    expect(redraws).toBeLessThanOrEqual(11);
    expect(redraws).toBeGreaterThanOrEqual(9);
  });

  test("the list window moves only as far as the selection needs", () => {
    expect(listTop(0, 3, 100, 10)).toBe(0);
    expect(listTop(0, 12, 100, 10)).toBe(3);
    expect(listTop(3, 5, 100, 10)).toBe(3);
    expect(listTop(3, 1, 100, 10)).toBe(1);
    expect(listTop(50, 99, 100, 10)).toBe(90);
  });
});

describe("layout", () => {
  test("side by side when wide, stacked below 100 columns, always inside the terminal", () => {
    const wide = layout(160, 40, 0, 10);
    expect(wide.stacked).toBe(false);
    expect(wide.list.width + 1 + wide.output.width).toBe(160);
    const narrow = layout(80, 24, 0, 30);
    expect(narrow.stacked).toBe(true);
    expect(narrow.list.height + narrow.output.height).toBe(22);
    expect(narrow.output.height).toBeGreaterThanOrEqual(12);
  });
});

test("the note after quitting says what keeps running", async () => {
  const { closingNote } = await import("../../../src/ui/closing-note.ts");
  const note = closingNote([makeAgent({ status: "running" }), makeAgent({ status: "waiting" }), makeAgent({ status: "done" })]);
  expect(note).toContain("1 agent keeps running");
  expect(note).toContain("1 waits for you");
});
