import { expect, test } from "bun:test";
import { WorkspaceConfigSchema } from "../src/protocol/config.ts";
import { unknownConfigKeys } from "../src/json-config.ts";

test("unknown config keys are named by their dotted path at every level; known ones are not", () => {
  const config = {
    providers: { claude: { model: "sonnet", effort: "high" } },
    worktree: { include: [".env"], setup: "npm ci", keepDays: 3, copyMode: "reflink" },
    daemon: { idleExitMinutes: 0 },
    retries: { max: 3 },
  };
  expect(WorkspaceConfigSchema.safeParse(config).success).toBe(true);
  expect(unknownConfigKeys(WorkspaceConfigSchema, config)).toEqual(["providers.claude.effort", "worktree.copyMode", "retries"]);
  expect(unknownConfigKeys(WorkspaceConfigSchema, { worktree: { keepDays: 1 } })).toEqual([]);
  // a known key with a wrong value is still refused
  expect(WorkspaceConfigSchema.safeParse({ worktree: { keepDays: -1 } }).success).toBe(false);
});
