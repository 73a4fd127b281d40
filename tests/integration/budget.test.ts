import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import { fakeClaude, resultLine } from "../support/fake-claude.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

test("past its budget an agent is stopped and fails with class budget; claude is given --max-budget-usd", async () => {
  sb = new Sandbox();
  const argsFile = join(sb.dir, "claude-args");
  // it reports a cost over the budget and keeps going, as a run that overspends does
  const bin = fakeClaude(sb.runtime, argsFile, `echo '${resultLine("partial", 0.5)}'; exec sleep 1000`);
  const env = { PATH: `${bin}:${process.env.PATH}` };
  await sb.json(["spawn", "--no-worktree", "--name", "spender", "--provider", "claude", "--prompt", "spend", "--budget", "0.25", "--json"], { env });
  const a = await waitFor("the agent to fail", async () => {
    const x = (await sb.json<Agent[]>(["ls", "--json"])).find((y) => y.name === "spender");
    return x?.status === "failed" ? x : undefined;
  }, 20_000);
  expect(a).toMatchObject({ budgetUsd: 0.25, costUsd: 0.5, attempt: 1, session: 1, failure: { class: "budget", evidence: "spent $0.50 of a $0.25 budget", attempt: 1 } });
  const args = readFileSync(argsFile, "utf8").split("\n");
  expect(args[args.indexOf("--max-budget-usd") + 1]).toBe("0.25");
}, 30_000);

test("a bad --budget is one clear line", async () => {
  sb = new Sandbox();
  const r = await sb.run(["spawn", "--command", "true", "--budget", "free"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr.split("\n")[0]).toBe("troupe: --budget takes an amount in USD, such as 2.50");
});
