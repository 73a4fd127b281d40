import { expect, test } from "bun:test";
import { e2eFilesOf } from "../../scripts/lib/e2e-files.ts";

test("a provider's e2e files: its name as whole words, each file given to the longest name it holds", () => {
  const files = ["codex.test.ts", "codex-acp.test.ts", "mcp-codex.test.ts", "pi.test.ts", "api-keys.test.ts", "claude-live.test.ts", "README.md"];
  const names = ["claude", "codex", "codex-acp", "pi"];
  expect(e2eFilesOf("codex", files, names)).toEqual(["codex.test.ts", "mcp-codex.test.ts"]);
  expect(e2eFilesOf("codex-acp", files, names)).toEqual(["codex-acp.test.ts"]);
  expect(e2eFilesOf("pi", files, names)).toEqual(["pi.test.ts"]);
  expect(e2eFilesOf("claude", files, names)).toEqual(["claude-live.test.ts"]);
});
