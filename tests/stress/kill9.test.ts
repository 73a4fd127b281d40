import { afterEach, expect, test } from "bun:test";
import { Sandbox } from "../support/sandbox.ts";
import { compareLines, runKill9 } from "../../scripts/stress/kill9.ts";
import { expectedOutput } from "../../scripts/stress/writer.ts";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

test("the kill9 check counts lost, doubled, reordered and broken lines", () => {
  const lines = expectedOutput(1, 200).split("\n");
  expect(compareLines(lines.join("\n"), lines.join("\n"))).toEqual({ stored: 200, lost: 0, doubled: 0, reordered: 0, corrupt: 0 });
  const tampered = [...lines.slice(0, 10), lines[20]!, ...lines.slice(10, 20), ...lines.slice(21, 150), lines[149]!, lines[160]!.slice(0, -1)];
  expect(compareLines(lines.join("\n"), tampered.join("\n"))).toEqual({ stored: 152, lost: 50, doubled: 1, reordered: 10, corrupt: 1 });
});

test("kill -9 of the daemon twice while 10 agents stream 5,000 adversarial lines: nothing lost, doubled or reordered, every agent done", async () => {
  sb = new Sandbox();
  const r = await runKill9(sb, { agents: 10, lines: 5000, kills: 2, seconds: 4, seed: 7 });
  expect(r.killed).toBe(2);
  expect(r.streamingAtKill.every((n) => n > 0)).toBe(true);
  expect(r.clientFailures).toEqual([]);
  expect({ lost: r.lost, doubled: r.doubled, reordered: r.reordered, corrupt: r.corrupt }).toEqual({ lost: 0, doubled: 0, reordered: 0, corrupt: 0 });
  expect(r.linesStored).toBe(5000);
  expect(r.notIdentical).toEqual([]);
  expect(r.wrongStatus).toEqual([]);
  expect(r.daemonsAtEnd).toBe(1);
});
