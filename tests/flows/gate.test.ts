import { expect, test } from "bun:test";
import { fillPrompt, parseGateOutput, runGate } from "../../src/flows/gate.ts";
import { checkCron, nextRun } from "../../src/flows/schedule.ts";

test("gate output: empty runs, run:false skips, other keys fill the prompt", () => {
  expect(parseGateOutput("")).toEqual({ run: true, vars: {} });
  expect(parseGateOutput('{"run": false}')).toEqual({ run: false, vars: {} });
  expect(parseGateOutput('{"run": true, "pr": 42, "branch": "x", "draft": false}\n')).toEqual({ run: true, vars: { pr: "42", branch: "x", draft: "false" } });
  expect(() => parseGateOutput("yes")).toThrow("not JSON");
  expect(() => parseGateOutput("[1]")).toThrow("one JSON object");
  expect(() => parseGateOutput('{"run": "no"}')).toThrow("`run` must be true or false");
});

test("[[var]] placeholders are filled; one the gate gave no value for refuses the run", () => {
  expect(fillPrompt("review PR [[pr]] on [[branch]], [[pr]] again", { pr: "42", branch: "main" })).toBe("review PR 42 on main, 42 again");
  expect(fillPrompt("no vars [here]", {})).toBe("no vars [here]");
  expect(() => fillPrompt("review [[pr]] and [[x]]", { pr: "1" })).toThrow("no value for [[x]]");
});

test("a gate runs with the flow's environment; a failing gate says why", async () => {
  expect(await runGate('printf \'{"who":"%s"}\' "$WHO"', "/", { WHO: "me", PATH: process.env.PATH! })).toEqual({ run: true, vars: { who: "me" } });
  await expect(runGate("echo oops >&2; exit 3", "/", { PATH: process.env.PATH! })).rejects.toThrow("the gate exited 3: oops");
});

test("the next run from a cron expression (croner), in the daemon's local time", () => {
  const at = new Date(2026, 0, 1, 10, 2, 30);
  expect(nextRun("*/5 * * * *", at)).toBe(new Date(2026, 0, 1, 10, 5, 0).getTime());
  expect(nextRun("0 9 * * 1-5", new Date(2026, 0, 2, 9, 0, 0))).toBe(new Date(2026, 0, 5, 9, 0, 0).getTime()); // Fri 09:00 → Mon
  expect(nextRun("@daily", at)).toBe(new Date(2026, 0, 2, 0, 0, 0).getTime());
  expect(() => checkCron("every minute")).toThrow("--cron 'every minute' is not a cron expression");
  expect(() => checkCron("61 * * * *")).toThrow("not a cron expression");
});
