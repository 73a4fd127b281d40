import { expect, test } from "bun:test";
import { answersPrompt, buildAgentPrompt, incomingQuestionPrompt } from "../../src/prompts/agent.ts";

test("prompts name troupe by absolute path (a login shell may reset PATH), quoted when needed", () => {
  const p = buildAgentPrompt({ id: "ag_1", name: "brave-otter", prompt: "  Fix the bug.  ", inputDir: "/w/.troupe/input", troupe: "/opt/troupe/bin/troupe" });
  expect(p).toStartWith("Fix the bug.\n\n## Working under troupe");
  expect(p).toContain('`/opt/troupe/bin/troupe signal done --result "<short summary of what you did>"`');
  expect(p).toContain("Your input is in /w/.troupe/input");
  expect(p).toContain('You are agent "brave-otter" (id ag_1)');
  const spaced = buildAgentPrompt({ id: "a", name: "n", prompt: "x", inputDir: "/i", troupe: "/my tools/troupe" });
  expect(spaced).toContain("`'/my tools/troupe' listen`");
  expect(answersPrompt("/t/troupe", [{ question: "Which db?", answer: "postgres" }], "and hurry")).toBe(
    "Here are the answers to your questions:\n\nQ: Which db?\nA: postgres\n\nand hurry\n\nContinue the task, and end with `/t/troupe signal` as before.",
  );
  expect(incomingQuestionPrompt("/t/troupe", { id: "cv_1", fromName: "alpha", question: "Port?" })).toContain("`/t/troupe answer \"<answer>\" --conversation cv_1`");
});
