import { expect, test } from "bun:test";
import { buildModePrompt, MODE_BLOCKS, type ModePromptContext } from "../../src/prompts/modes.ts";
import { gitBlock, inputBlock, readFirstBlock, realityBlock, signalBlock, talkBlock } from "../../src/prompts/blocks.ts";
import { AgentModeSchema, type AgentMode } from "../../src/protocol/work.ts";

const ctx = (mode: AgentMode): ModePromptContext => ({
  id: "ag_7f3k",
  name: "brave-otter",
  mode,
  inputDir: "/w/.troupe/worktrees/brave-otter/.troupe/input",
  troupe: "/opt/troupe/bin/troupe",
  initiativeId: "in_42",
  phaseId: mode === "detail" || mode === "execute" ? "ph_9" : null,
  taskId: mode === "execute" ? "tk_3" : null,
  files: ["initiative.md", ...(mode === "detail" || mode === "execute" ? ["phase.md"] : []), ...(mode === "execute" ? ["task.md", "context/tasks/a.md", "context/tasks/b.md"] : []), "context/phases/store.md"],
});

// what marks each block and each mode's section in the text
const MARK = new Map<unknown, string>([
  [signalBlock, "## How to end"],
  [inputBlock, "## Your input"],
  [talkBlock, "## Talking to the person and to other agents"],
  [readFirstBlock, "## Read before you write"],
  [realityBlock, "## When reality differs from your task"],
  [gitBlock, "## Git in your worktree"],
]);
const SECTION: Record<AgentMode, string[]> = {
  discuss: ["# Discuss", "Outcome", "Artifacts", "Wiring", "Failure points", "/w/.troupe/worktrees/brave-otter/.troupe/output/decisions/<slug>.md"],
  plan: ["# Plan", "One concern per phase", "Foundation first", "parallel waves", "Tests belong inside every phase", "/w/.troupe/worktrees/brave-otter/.troupe/output/phases/<slug>.md", "dependsOn: [config-schema]"],
  detail: ["# Detail", "1 to 5 files", "File ownership", "expected behaviour", "how to test it", "/w/.troupe/worktrees/brave-otter/.troupe/output/tasks/<slug>.md"],
  execute: ["# Execute", "1. Read", "2. Test first", "3. Implement", "4. Verify", "5. Commit", "6. Signal done"],
  refine: ["# Refine", "1. Ambiguity", "2. Missing details", "3. Contradictions", "No style edits", "/w/.troupe/worktrees/brave-otter/.troupe/output/initiative.md"],
};

test("each mode's prompt holds its section, its blocks in order, and the agent's real id and name", () => {
  for (const mode of AgentModeSchema.options) {
    const p = buildModePrompt(ctx(mode));
    for (const s of SECTION[mode]) expect(p).toContain(s);
    const marks = MODE_BLOCKS[mode].map((b) => MARK.get(b)!);
    const at = marks.map((m) => p.indexOf(m));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const [block, m] of MARK) if (!MODE_BLOCKS[mode].includes(block as never)) expect(p).not.toContain(m);
    expect(p).toContain('You are agent "brave-otter" (id ag_7f3k)');
    expect(p).toContain("`/opt/troupe/bin/troupe signal done --result");
    expect(p).toContain("/w/.troupe/worktrees/brave-otter/.troupe/input");
  }
  // only execute changes code: git and the reality block are its
  expect(MODE_BLOCKS.execute).toContain(gitBlock);
  expect(MODE_BLOCKS.execute).toContain(realityBlock);
});

test("the input block lists the files present, and the talk block the ids worked on", () => {
  const p = buildModePrompt(ctx("execute"));
  expect(p).toContain("`task.md`");
  expect(p).toContain("`context/tasks/` (2 files)");
  expect(p).toContain("working task tk_3, phase ph_9 of initiative in_42");
  expect(p).toContain("--task <task id>");
  expect(p).toContain("--phase <phase id>");
  const plan = buildModePrompt(ctx("plan"));
  expect(plan).not.toContain("`task.md`");
  expect(plan).not.toContain("`phase.md`");
  expect(plan).toContain("`context/phases/` (1 file)");
});
