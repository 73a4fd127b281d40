import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { outputNews, storedRunCost } from "../../../src/agents/output/agent-metadata.ts";
import { Rows } from "../../support/rows.ts";
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

test("a daemon restarted mid-run counts the run's next result from its last stored one, not from zero", () => {
  const rows = new Rows();
  try {
    rows.agent("a", {}, { provider: "claude" });
    // what the earlier daemon stored: everything up to (and with) the first result
    const firstResult = lines.findIndex((l) => l.includes('"type":"result"'));
    let offset = 0;
    const stored = rows.store.chunks.appendMany(
      lines.map((l, i) => {
        const piece = { agentId: "ag_a", session: 1, stream: "stdout" as const, data: `${l}\n`, bytes: l.length + 1, offset };
        offset += l.length + 1;
        return i <= firstResult ? piece : null;
      }).filter((p) => p !== null),
    ).chunks;
    // the new daemon sees the second result first, with nothing in memory
    const second = lines.findLastIndex((l) => l.includes('"type":"result"'));
    const news = outputNews(parserFor("claude"), chunk(lines[second]!, stored.at(-1)!.id + 1), () => ({ ...known(), costUsd: 1 }), () =>
      storedRunCost(rows.store.chunks, parserFor("claude"), chunk(lines[second]!, stored.at(-1)!.id + 1)),
    );
    expect(news.patch.costUsd).toBeCloseTo(1 + results[1]!.total_cost_usd! - results[0]!.total_cost_usd!, 10);
  } finally {
    rows.close();
  }
});

test("an ACP agent's plan update is its record's plan, the last of a chunk winning (each update is the whole plan)", () => {
  const plan = (entries: object[]) => JSON.stringify({ acp: "recv", msg: { jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", update: { sessionUpdate: "plan", entries } } } });
  const data = [plan([{ content: "read", status: "in_progress" }]), plan([{ content: "read", status: "completed" }, { content: "fix", status: "pending" }])].join("\n");
  const news = outputNews(parserFor("gemini"), chunk(data, 1), known);
  expect(news.patch.plan).toEqual([{ content: "read", status: "completed" }, { content: "fix", status: "pending" }]);
  expect(outputNews(parserFor("gemini"), chunk(plan([]), 2), known).patch.plan).toEqual([]);
  expect(outputNews(parserFor("gemini"), chunk(plan([{ content: "x", status: "pending" }]), 3), () => null).patch).toEqual({});
});

test("a result and then a line taken, in one chunk: the next turn is under way, not a turn ended", () => {
  // the ACP runner ends a turn and at once prompts with the line waiting: both can reach the daemon in one read
  const turn = JSON.stringify({ troupe: "turn", stopReason: "end_turn" });
  const input = JSON.stringify({ troupe: "input", text: "the next message", id: "line-2" });
  const both = outputNews(parserFor("gemini"), chunk(`${turn}\n${input}`, 1), known);
  expect(both.input).toEqual({ taken: ["line-2"], turnEnded: false });
  const ended = outputNews(parserFor("gemini"), chunk(`${input}\n${turn}`, 2), known);
  expect(ended.input).toEqual({ taken: ["line-2"], turnEnded: true });
});
