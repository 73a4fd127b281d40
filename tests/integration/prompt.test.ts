import { afterEach, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { ModePromptResponse } from "../../src/protocol/api-work.ts";
import { AgentModeSchema, type AgentMode } from "../../src/protocol/work.ts";
import { MODE_BLOCKS } from "../../src/prompts/modes.ts";

/**
 * `troupe prompt` against what agents really get: the compiled binary, a real daemon and work
 * model, and agents of every mode (the generic provider running a script that saves
 * $TROUPE_PROMPT, writes what its mode proposes, and signals done).
 */

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/**
 * Saves its prompt as `<dir>/<mode>.prompt`; discuss decides `storage`, plan proposes phases
 * `core` and `docs` (after core), detail a task `<phase>-task`, execute commits `<task>.txt`.
 */
function captureAgent(dir: string): string {
  const path = join(dir, "capture.sh");
  const file = (folder: string, slug: string, lines: string) => `mkdir -p .troupe/output/${folder} && printf -- '${lines}' > .troupe/output/${folder}/${slug}.md`;
  writeFileSync(
    path,
    `#!/bin/sh
m=$(sed -n 's/^  "mode": "\\(.*\\)",$/\\1/p' .troupe/input/manifest.json)
slug() { sed -n 's/^slug: //p' "$1" | head -1; }
printf '%s' "$TROUPE_PROMPT" > ${JSON.stringify(dir)}/$m.prompt
case $m in
  discuss) ${file("decisions", "storage", "---\\ntitle: SQLite\\n---\\nOrders go in SQLite.\\n")} ;;
  plan) ${file("phases", "core", "---\\ntitle: Core\\ndependsOn: []\\n---\\nDo core.\\n")} && ${file("phases", "docs", "---\\ntitle: Docs\\ndependsOn: [core]\\n---\\nDo docs.\\n")} ;;
  detail) s=$(slug .troupe/input/phase.md); ${file("tasks", "$s-task", "---\\ntitle: Task\\ndependsOn: []\\n---\\nWrite the file.\\n")} ;;
  execute) s=$(slug .troupe/input/task.md); echo "$s" > "$s.txt" && git add "$s.txt" && git commit -qm "task $s" ;;
esac
troupe signal done --result "$m"
`,
  );
  chmodSync(path, 0o755);
  return path;
}

async function ended(pick: (a: Agent) => boolean): Promise<Agent> {
  return waitFor("the agent to end", async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find(pick);
    return a && (a.status === "done" || a.status === "failed") ? a : undefined;
  });
}

async function preview(mode: AgentMode, on: string, ref: string): Promise<string> {
  const r = await sb.run(["prompt", "--mode", mode, `--${on}`, ref, "--provider", "generic"]);
  expect([r.code, r.stderr]).toEqual([0, ""]);
  return r.stdout;
}

/** What the agent was given (its $TROUPE_PROMPT, which prompt.md holds too), its own id and name as `troupe prompt` shows them. */
function received(dir: string, agent: Agent): string {
  const got = readFileSync(join(dir, `${agent.mode}.prompt`), "utf8");
  expect(readFileSync(join(agent.worktree!, ".troupe/input/prompt.md"), "utf8")).toBe(got);
  return got.replaceAll(agent.id, "AGENT_ID").replaceAll(agent.name, "AGENT_NAME");
}

test("troupe prompt --mode M prints exactly what a spawned agent of mode M receives, for every mode", async () => {
  sb = new Sandbox();
  const script = captureAgent(sb.runtime);
  await sb.json(["initiative", "new", "Shop", "--goal", "# Shop\n\nA shop.", "--json"]);

  for (const mode of ["discuss", "refine", "plan"] as const) {
    const expected = await preview(mode, "initiative", "shop");
    const started = await sb.json<Agent>([mode, "shop", "--command", script, "--json"]);
    const agent = await ended((a) => a.id === started.id);
    expect([mode, agent.status, agent.error]).toEqual([mode, "done", null]);
    expect(received(sb.runtime, agent)).toBe(expected);
  }

  await sb.json(["approve", "--all", "shop", "--json"]);
  const detailExpected = await preview("detail", "phase", "shop/core");
  const detailing = await sb.json<Agent>(["detail", "shop/core", "--command", script, "--json"]);
  const detailer = await ended((a) => a.id === detailing.id);
  expect([detailer.status, detailer.error]).toEqual(["done", null]);
  expect(received(sb.runtime, detailer)).toBe(detailExpected);

  // execute runs come from dispatch (the task is approved with its phase)
  const executeExpected = await preview("execute", "task", "shop/core-task");
  await sb.json(["dispatch", "shop", "--command", script, "--json"]);
  const executor = await ended((a) => a.mode === "execute" && a.prompt === "execute shop/core/core-task");
  await sb.json(["dispatch", "shop", "--stop", "--json"]);
  expect([executor.status, executor.error]).toEqual(["done", null]);
  expect(received(sb.runtime, executor)).toBe(executeExpected);
  // nothing about it is a placeholder: its task's real ids and input files, context included
  expect(executeExpected).toContain("# Execute: do your task");
  expect(executeExpected).not.toContain("TASK_ID");
  expect(executeExpected).toContain("`task.md`");
  expect(executeExpected).toContain("`context/phases/` (1 file)");
  expect(executeExpected).toContain("`context/decisions/` (1 file)");
}, 90_000);

test("without a ref, a placeholder target (said on stderr); --json names the blocks; bad input is a usage error", async () => {
  sb = new Sandbox();
  const text = await sb.run(["prompt", "--mode", "execute"]);
  expect(text.code).toBe(0);
  expect(text.stderr).toContain("no --task given: a placeholder task");
  expect(text.stdout).toStartWith("# Execute: do your task\n\nYou are the execute agent of task TASK_ID (task.md), in phase PHASE_ID of initiative INITIATIVE_ID.");
  expect(text.stdout).toContain('You are agent "AGENT_NAME" (id AGENT_ID)');
  expect(text.stdout).toContain(`In \`${sb.dir}/.troupe/worktrees/AGENT_NAME/.troupe/input\`, written by troupe`);

  const json = await sb.json<ModePromptResponse>(["prompt", "--mode", "execute", "--json"]);
  expect(json).toMatchObject({ mode: "execute", provider: "claude", placeholder: true });
  expect(json.blocks.map((b) => b.id)).toEqual(["execute.goal", "execute.steps", "scope", "deviations", "anti-patterns", "input", "codebase", "context", "git", "talk", "listen.live", "signal"]);
  expect(`${json.blocks.map((b) => b.text).join("\n\n")}\n`).toBe(text.stdout);
  // every mode's blocks, as the prompt tests list them (tests/prompts/modes.test.ts)
  for (const mode of AgentModeSchema.options) {
    const blocks = (await sb.json<ModePromptResponse>(["prompt", "--mode", mode, "--provider", "codex", "--json"])).blocks;
    expect(blocks.map((b) => b.id)).toEqual(MODE_BLOCKS[mode].map((slot) => ("choose" in slot ? "listen.poll" : slot.id)));
  }

  for (const [args, message] of [
    [["prompt"], "prompt takes --mode discuss|plan|detail|execute|refine"],
    [["prompt", "--mode", "nope"], "prompt takes --mode"],
    [["prompt", "--mode", "execute", "--phase", "shop/core"], "--mode execute works on a task: give --task REF, not --phase"],
    [["prompt", "--mode", "plan", "extra"], "Unexpected argument"],
  ] as const) {
    const r = await sb.run([...args]);
    expect([args, r.code, r.stdout]).toEqual([args, 2, ""]);
    expect(r.stderr).toContain(message);
  }
  for (const [args, message] of [
    [["prompt", "--mode", "plan", "--initiative", "nope"], "no initiative 'nope'"],
    [["prompt", "--mode", "execute", "--task", "nope/x"], "no task 'nope/x'"],
    [["prompt", "--mode", "plan", "--provider", "nope"], "unknown provider 'nope'"],
  ] as const) {
    const r = await sb.run([...args]);
    expect([args, r.code, r.stdout]).toEqual([args, 1, ""]);
    expect(r.stderr).toContain(message);
  }
}, 60_000);
