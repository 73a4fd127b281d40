import { expect, test } from "bun:test";
import { executeCommand } from "../../../providers/acp/command.ts";

test("the command of an execute call, whatever shape its input has", () => {
  expect(executeCommand({ command: "npm test", description: "run the tests" })).toBe("npm test");
  // Cline's list: a line each
  expect(executeCommand({ commands: ["npm ci", "npm test"] })).toBe("npm ci\nnpm test");
  // Codex's adapter: a shell's script as it is
  expect(executeCommand({ call_id: "c1", command: ["/bin/bash", "-lc", "echo hi > f.txt"], cwd: "/w" })).toBe("echo hi > f.txt");
  expect(executeCommand({ command: ["sh", "-c", "ls"] })).toBe("ls");
  // any other argv, quoted as a shell reads it
  expect(executeCommand({ command: ["git", "commit", "-m", "it's done"] })).toBe(`git commit -m 'it'\\''s done'`);
  expect(executeCommand({ command: ["git", "status"] })).toBe("git status");
  for (const none of [undefined, null, "npm test", {}, { command: [] }, { command: [1, 2] }, { commands: [] }]) expect(executeCommand(none)).toBeUndefined();
});
