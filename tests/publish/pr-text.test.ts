import { expect, test } from "bun:test";
import { pullBody, pullTitle, type PullSource } from "../../src/publish/pr-text.ts";

const source = (over: Partial<PullSource> = {}): PullSource => ({ by: "agent fixer (claude)", title: null, description: null, result: null, commits: [], ...over });

test("the title: the one given, the task's, the prompt's first line (headings unmarked), the newest commit, the agent", () => {
  expect(pullTitle(source({ title: "Task title", description: "prompt" }), "  Given  ")).toBe("Given");
  expect(pullTitle(source({ title: "Task title", description: "prompt" }))).toBe("Task title");
  expect(pullTitle(source({ description: "\n# Fix the login\n\nIt fails." }))).toBe("Fix the login");
  expect(pullTitle(source({ commits: ["abc1234 First", "def5678 Second one"] }))).toBe("Second one");
  expect(pullTitle(source())).toBe("agent fixer (claude)");
  const long = pullTitle(source({ description: "word ".repeat(30) }));
  expect(long.length).toBeLessThanOrEqual(72);
  expect(long).toEndWith("word…");
});

test("the body: the task, the result, the commits, who opened it; empty parts left out", () => {
  expect(pullBody(source({ description: "Fix it.", result: "Fixed.", commits: ["abc1234 Fix"] }))).toBe(
    "## Task\n\nFix it.\n\n## Result\n\nFixed.\n\n## Commits\n\n- abc1234 Fix\n\nOpened with troupe from agent fixer (claude).\n",
  );
  expect(pullBody(source())).toBe("Opened with troupe from agent fixer (claude).\n");
});
