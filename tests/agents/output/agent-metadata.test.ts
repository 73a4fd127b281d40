import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { outputNews } from "../../../src/agents/output/agent-metadata.ts";
import { parserFor } from "../../../src/output/render.ts";
import type { OutputChunk } from "../../../src/protocol/output.ts";

/** The recorded run of Claude Code taking two more user messages mid-run (tests/fixtures/claude/live-input.*). */
const lines = readFileSync(join(import.meta.dir, "../../fixtures/claude/live-input.stdout.jsonl"), "utf8").split("\n").filter(Boolean);
const results = lines.map((l) => JSON.parse(l) as { type: string; total_cost_usd?: number }).filter((e) => e.type === "result");
const chunk = (data: string, id: number): OutputChunk => ({ id, agentId: "ag_a", session: 1, stream: "stdout", data: `${data}\n`, createdAt: 0 });
const known = () => ({ providerSessionId: null, costUsd: 0.5, inputTokens: 0, outputTokens: 0 });

test("a run of many turns: its cost is what its last result says, not the sum of its running totals; the echoed ids are taken", () => {
  expect(results.map((r) => r.total_cost_usd)).toHaveLength(2);
  let cost = 0.5;
  let runCost = 0;
  const taken: string[] = [];
  let turns = 0;
  lines.forEach((line, i) => {
    const news = outputNews(parserFor("claude"), chunk(line, i + 1), () => ({ ...known(), costUsd: cost }), runCost);
    if (news.patch.costUsd != null) cost = news.patch.costUsd;
    runCost = news.runCost;
    taken.push(...news.input.taken);
    if (news.input.turnEnded) turns++;
  });
  expect(cost).toBeCloseTo(0.5 + results.at(-1)!.total_cost_usd!, 10);
  expect(turns).toBe(2);
  // the prompt's echo carries the CLI's own uuid; the two lines troupe wrote carry theirs
  expect(taken.slice(1)).toEqual(["11111111-1111-4111-8111-000000000001", "11111111-1111-4111-8111-000000000002"]);
});
