import { expect, test } from "bun:test";
import { buildModePrompt, MODE_BLOCKS, modePromptBlocks, type ModePromptContext } from "../../src/prompts/modes.ts";
import { AgentModeSchema, type AgentMode } from "../../src/protocol/work.ts";

const ctx = (mode: AgentMode, liveInput = false): ModePromptContext => ({
  id: "ag_7f3k",
  name: "brave-otter",
  mode,
  inputDir: "/w/.troupe/worktrees/brave-otter/.troupe/input",
  troupe: "/opt/troupe/bin/troupe",
  initiativeId: "in_42",
  phaseId: mode === "detail" || mode === "execute" ? "ph_9" : null,
  taskId: mode === "execute" ? "tk_3" : null,
  files: ["initiative.md", ...(mode === "detail" || mode === "execute" ? ["phase.md"] : []), ...(mode === "execute" ? ["task.md", "context/tasks/a.md", "context/tasks/b.md"] : []), "context/phases/store.md"],
  liveInput,
});

const ids = (mode: AgentMode, liveInput = false) => modePromptBlocks(ctx(mode, liveInput)).map((b) => b.id);

/** What issue 23 asks of each mode's prompt, by block: the modes that must carry it, and only those. */
const REQUIRED: Record<string, AgentMode[]> = {
  // context management: do not stop early, checkpoints, parallel reads
  context: ["plan", "detail", "execute"],
  // anti-patterns, anti-hardcoding among them
  "anti-patterns": ["execute"],
  // the specificity test with good and bad examples
  specificity: ["plan", "detail"],
  "file-ownership": ["plan", "detail"],
  checkpoints: ["detail"],
  // the deviation rules' whole tree: typo, small bug, missing dependency, architectural mismatch
  deviations: ["execute"],
  // seven or more files: too big, signal questions
  scope: ["execute"],
  git: ["execute"],
  // read before writing, imports and names exist, nearby patterns, git log
  codebase: ["discuss", "plan", "detail", "execute", "refine"],
  "discuss.questions": ["discuss"],
  "refine.hierarchy": ["refine"],
  input: ["discuss", "plan", "detail", "execute", "refine"],
  talk: ["discuss", "plan", "detail", "execute", "refine"],
  "listen.poll": ["discuss", "plan", "detail", "execute", "refine"],
  signal: ["discuss", "plan", "detail", "execute", "refine"],
};

test("each mode carries the blocks it must, and no block meant for another mode", () => {
  for (const mode of AgentModeSchema.options) {
    const got = ids(mode);
    for (const [id, modes] of Object.entries(REQUIRED)) expect([mode, id, got.includes(id)]).toEqual([mode, id, modes.includes(mode)]);
    // its own section comes first, and no block twice
    expect(got[0]).toBe(`${mode}.goal`);
    expect(new Set(got).size).toBe(got.length);
    // the other modes' sections are not in it
    expect(got.filter((id) => id.includes(".") && !id.startsWith(`${mode}.`) && !id.startsWith("listen."))).toEqual([]);
  }
});

test("the listener block is chosen by what the provider's CLI can take mid-run", () => {
  for (const mode of AgentModeSchema.options) {
    expect(ids(mode, false).filter((id) => id.startsWith("listen."))).toEqual(["listen.poll"]);
    expect(ids(mode, true).filter((id) => id.startsWith("listen."))).toEqual(["listen.live"]);
  }
  const poll = modePromptBlocks(ctx("execute")).find((b) => b.id === "listen.poll")!.text;
  // each look is one of the agent's own commands (allowed in every permission mode): no shell around it
  expect(poll).toContain("`/opt/troupe/bin/troupe listen --timeout 0`");
  expect(poll).toContain("`/opt/troupe/bin/troupe answer \"<answer>\" --conversation <conversationId>`");
  expect(poll).toContain("`/opt/troupe/bin/troupe inbox`");
  const commands = [...poll.matchAll(/`(\/opt\/troupe\/bin\/troupe [^`]*)`/g)].map((m) => m[1]!);
  expect(commands.length).toBe(3);
  for (const cmd of commands) expect(cmd).not.toMatch(/[&|;]| > |\$\(/);
  const live = modePromptBlocks(ctx("execute", true)).find((b) => b.id === "listen.live")!.text;
  expect(live).not.toContain("listen --timeout");
});

test("the prompt is its blocks joined, with the agent's real id, name, paths and commands", () => {
  for (const mode of AgentModeSchema.options) {
    const p = buildModePrompt(ctx(mode));
    expect(p).toBe(`${modePromptBlocks(ctx(mode)).map((b) => b.text).join("\n\n")}\n`);
    expect(p).toContain('You are agent "brave-otter" (id ag_7f3k)');
    expect(p).toContain("`/opt/troupe/bin/troupe signal done --result");
    expect(p).toContain('`/opt/troupe/bin/troupe signal questions --question "<question>"');
    expect(p).toContain("In `/w/.troupe/worktrees/brave-otter/.troupe/input`, written by troupe");
    // the sections e2e scripts and agents recognise a mode by
    expect(p.split("\n")[0]).toMatch(/^# (Discuss|Plan|Detail|Execute|Refine): /);
    expect(p).not.toMatch(/(initiative|phase|task|agent|id) (null|undefined)\b/);
  }
  // where each mode writes its output
  expect(buildModePrompt(ctx("discuss"))).toContain("/w/.troupe/worktrees/brave-otter/.troupe/output/decisions/<slug>.md");
  expect(buildModePrompt(ctx("plan"))).toContain("/w/.troupe/worktrees/brave-otter/.troupe/output/phases/<slug>.md");
  expect(buildModePrompt(ctx("detail"))).toContain("/w/.troupe/worktrees/brave-otter/.troupe/output/tasks/<slug>.md");
  expect(buildModePrompt(ctx("refine"))).toContain("/w/.troupe/worktrees/brave-otter/.troupe/output/initiative.md");
});

test("a troupe path with a space is quoted in every command", () => {
  for (const mode of AgentModeSchema.options) {
    const p = buildModePrompt({ ...ctx(mode), troupe: "/my tools/troupe" });
    expect(p).toContain("`'/my tools/troupe' signal done --result");
    expect(p).toContain("`'/my tools/troupe' listen --timeout 0`");
    expect(p).not.toMatch(/[^']\/my tools\/troupe/);
  }
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

test("every block of every list renders to a titled section", () => {
  for (const mode of AgentModeSchema.options) {
    expect(MODE_BLOCKS[mode].length).toBe(modePromptBlocks(ctx(mode)).length);
    for (const b of modePromptBlocks(ctx(mode))) expect(b.text).toMatch(/^#{1,2} \S/);
  }
});
