import { expect, test } from "bun:test";
import { agentRows, ago, oneLine, table } from "../../src/cli/format.ts";
import { makeAgent } from "../ui/helpers/fake-client.ts";

test("troupe ls shows one aligned row per agent: what it needs, its cost, and why it failed", () => {
  const now = Date.now();
  const rows = agentRows([
    makeAgent({ id: "ag_1", name: "brave-otter", status: "waiting", pid: null, createdAt: now - 90_000, questions: [{ id: "q1", question: "Which\ndatabase?" }] }),
    makeAgent({ id: "ag_2", name: "calm-yak", status: "failed", pid: null, createdAt: now - 5_000, costUsd: 0.0512, error: "usage limit reached (usage_limit): You've hit your session limit" }),
  ]).split("\n");
  expect(rows[0]).toBe("ID    NAME         PROVIDER  STATUS   PID  AGE    COST   DETAIL");
  expect(rows[1]).toBe("ag_1  brave-otter  generic   waiting  -    1m30s  -      Which database?");
  expect(rows[2]).toStartWith("ag_2  calm-yak     generic   failed   -    5s     $0.05  usage limit reached (usage_limit): You've hit your session…");
});

test("troupe ls shows a PR column once an agent has a pull request", () => {
  const now = Date.now();
  const rows = agentRows([
    makeAgent({ id: "ag_1", name: "brave-otter", status: "done", pid: null, createdAt: now - 5_000, result: "fixed", prUrl: "https://github.com/acme/app/pull/7" }),
    makeAgent({ id: "ag_2", name: "calm-yak", status: "done", pid: null, createdAt: now - 5_000, result: "nothing" }),
  ]).split("\n");
  expect(rows[0]).toMatch(/^ID\s+NAME\s+PROVIDER\s+STATUS\s+PID\s+AGE\s+COST\s+PR\s+DETAIL$/);
  expect(rows[1]).toMatch(/done\s+-\s+5s\s+-\s+https:\/\/github\.com\/acme\/app\/pull\/7\s+fixed$/);
  expect(rows[2]).toMatch(/-\s+-\s+nothing$/);
});

test("troupe ls shows a PORTS column once an agent holds ports", () => {
  const now = Date.now();
  const rows = agentRows([
    makeAgent({ id: "ag_1", name: "brave-otter", status: "done", pid: null, createdAt: now - 5_000, result: "served", ports: [3000, 3001] }),
    makeAgent({ id: "ag_2", name: "calm-yak", status: "done", pid: null, createdAt: now - 5_000, result: "nothing" }),
  ]).split("\n");
  expect(rows[0]).toMatch(/^ID\s+NAME\s+PROVIDER\s+STATUS\s+PID\s+AGE\s+COST\s+PORTS\s+DETAIL$/);
  expect(rows[1]).toMatch(/5s\s+-\s+3000,3001\s+served$/);
  expect(rows[2]).toMatch(/5s\s+-\s+-\s+nothing$/);
});

test("troupe ls lists each worker under the agent that started it, with ASCII glyphs when asked", () => {
  const lead = makeAgent({ id: "ag_1", name: "lead" });
  const rows = (ascii: boolean) =>
    agentRows([lead, makeAgent({ id: "ag_2", name: "solo" }), makeAgent({ id: "ag_3", name: "w1", parentId: "ag_1" }), makeAgent({ id: "ag_4", name: "w2", parentId: "ag_1" })], ascii)
      .split("\n")
      .slice(1, 5)
      .map((r) => r.split(/\s{2,}/).slice(0, 2).join(" | "));
  expect(rows(false)).toEqual(["ag_1 | lead", "ag_3 | ├─ w1", "ag_4 | └─ w2", "ag_2 | solo"]);
  expect(rows(true)).toEqual(["ag_1 | lead", "ag_3 | |- w1", "ag_4 | `- w2", "ag_2 | solo"]);
});

test("durations and one-line text", () => {
  const now = 1_000_000_000;
  expect([ago(now - 59_000, now), ago(now - 3_600_000, now), ago(now - 90_000_000, now)]).toEqual(["59s", "1h00m", "1d"]);
  expect(oneLine("a\n  b\tc", 10)).toBe("a b c");
  expect(oneLine("x".repeat(20), 10)).toBe(`${"x".repeat(9)}…`);
  expect(oneLine(null)).toBe("");
});

test("a table's cells and one-line text are sanitised before they are measured: no escape, no row of a cell's own, columns aligned", () => {
  expect(oneLine("bad \x1b]0;PWNED\x07\x1b[2J\x9b2Jend")).toBe("bad end");
  const rows = table(["FILE", "N"], [["a\x1b[31m.ts", "1"], ["b\nc.ts", "2"]]).split("\n");
  expect(rows).toEqual(["FILE    N", "a.ts    1", "b c.ts  2", ""]);
  const evil = agentRows([makeAgent({ id: "ag_1", name: "evil", status: "failed", error: "\x1b]0;PWNED\x07\x1b[2Jboom" })]);
  expect(evil).not.toMatch(/[\x1b\x07\x80-\x9f]/);
  expect(evil).toContain("boom");
});
