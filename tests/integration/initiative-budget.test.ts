import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { ScriptedAgents } from "../support/dispatch-agents.ts";
import { fakeClaude, resultLine } from "../support/fake-claude.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Initiative, PhaseTree } from "../../src/protocol/work.ts";

/**
 * An initiative's budget under `troupe dispatch`: the compiled daemon, a real repository and a
 * stand-in `claude` (the generic provider reports no cost) that runs the scripted agent, then
 * reports what the run cost as Claude Code does, in its stream-json result line.
 */

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("once its agents spent the budget dispatch starts no new agent and says why; a raise goes on", async () => {
  sb = new Sandbox();
  const agents = new ScriptedAgents(sb.runtime);
  const argsFile = join(sb.exchange, "claude-args");
  // a detail run costs $0.20, an execute run $0.50
  const cost = (c: number) => `echo '${resultLine("done", c)}'`;
  const bin = fakeClaude(sb.runtime, argsFile, `if [ -f .troupe/input/task.md ]; then sh ${agents.command} >/dev/null 2>&1; ${cost(0.5)}; else sh ${agents.command} >/dev/null 2>&1; ${cost(0.2)}; fi`);
  const env = { PATH: `${bin}:${process.env.PATH}`, GIT_AUTHOR_NAME: "Dee", GIT_AUTHOR_EMAIL: "dee@example.invalid", GIT_COMMITTER_NAME: "Dee", GIT_COMMITTER_EMAIL: "dee@example.invalid" };

  const init = await sb.json<Initiative>(["initiative", "new", "Shop", "--goal", "A shop.", "--budget", "1", "--json"]);
  expect(init).toMatchObject({ budgetUsd: 1, spentUsd: 0, reason: null });
  agents.script("plan", "plan", "mkdir -p .troupe/output/phases\nprintf '%s' '---\ntitle: Core\ndependsOn: []\n---\nCore.\n' > .troupe/output/phases/core.md");
  await sb.json<Agent>(["plan", "shop", "--command", agents.command, "--json"]);
  const tree = () => sb.json<PhaseTree>(["phases", "shop", "--json"]);
  await waitFor("the plan", async () => (await tree()).phases.length === 1);
  await sb.json(["approve", "--all", "shop", "--json"]);
  // a and b start together, each within what is left ($0.80), and together spend past the budget
  agents.detail("core", { a: { title: "Task a" }, b: { title: "Task b" }, c: { title: "Task c", dependsOn: ["a", "b"] } });
  for (const s of ["a", "b", "c"]) agents.commits(s, `${s}.txt`, s);
  await sb.json(["dispatch", "shop", "--concurrency", "2", "--provider", "claude", "--json"], { env });

  const reason = "budget spent: $1.20 of $1.00; raise it with troupe initiative budget shop USD";
  const held = await waitFor("the initiative to hold", async () => {
    const t = await tree();
    return t.initiative.reason ? t : undefined;
  }, 60_000);
  expect(held.initiative).toMatchObject({ spentUsd: 1.2, budgetUsd: 1, reason, status: "active" });
  expect(held.phases[0]!.tasks.map((t) => [t.slug, t.status])).toEqual([["a", "completed"], ["b", "completed"], ["c", "pending"]]);
  expect(agents.runs().sort()).toEqual(["detail core", "execute a", "execute b", "plan plan"]);
  // each claude run was given what was left of the initiative's budget when it started
  const budgets = () => readFileSync(argsFile, "utf8").split("\n").flatMap((l, i, all) => (l === "--max-budget-usd" ? [all[i + 1]] : []));
  expect(budgets()).toEqual(["1.00", "0.80", "0.80"]);
  const shown = await sb.run(["phases", "shop"]);
  expect(shown.stdout).toContain("spent $1.20 of $1.00");
  expect(shown.stdout).toContain(reason);

  // only the person raises it
  const raised = await sb.json<Initiative>(["initiative", "budget", "shop", "5", "--json"]);
  expect(raised.budgetUsd).toBe(5);
  const done = await waitFor("the initiative to complete", async () => {
    const t = await tree();
    return t.initiative.status === "completed" ? t : undefined;
  }, 60_000);
  expect(done.initiative).toMatchObject({ spentUsd: 1.7, reason: null });
  expect(budgets()).toEqual(["1.00", "0.80", "0.80", "3.80"]);
  expect((await sb.run(["initiative", "show", "shop"])).stdout).toContain("spent:   $1.70 of $5.00");
}, 120_000);

test("a bad budget is one clear line", async () => {
  sb = new Sandbox();
  const cases: [string[], string][] = [
    [["initiative", "new", "X", "--goal", "g", "--budget", "free"], "troupe: --budget takes an amount in USD, such as 2.50, not 'free'"],
    [["initiative", "budget", "x", "0"], "troupe: initiative budget takes an amount in USD, such as 2.50, not '0'"],
    [["initiative", "budget", "x"], "troupe: initiative budget takes an INITIATIVE and an amount in USD"],
  ];
  for (const [args, line] of cases) {
    const r = await sb.run(args);
    expect(r.code).not.toBe(0);
    expect(r.stderr.split("\n")[0]).toBe(line);
  }
});
