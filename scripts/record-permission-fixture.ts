/**
 * Records what the real Claude Code CLI (the dev dependency) sends to a permission prompt tool
 * (`--permission-prompt-tool mcp__rec__permission`) and what it makes of each answer, offline:
 * a scripted Messages API asks for three Bash calls; a stand-in MCP server (this file,
 * run with `serve`) logs each tools/call's raw arguments and answers allow, allow with a changed
 * input, then deny. The model's view of each answer is the tool_result the next request carries.
 *
 *   bun scripts/record-permission-fixture.ts   → tests/fixtures/claude/permission-prompt.json
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bash, claudeEnv, initGitRepo, lastToolResult, runClaude, startFakeAnthropic, text, turnIndex } from "../tests/support/fake-anthropic.ts";

const ROOT = resolve(import.meta.dirname, "..");

/** The stand-in server: one tool, `permission`, answering from ANSWERS in order and logging what it got. */
async function serve(log: string): Promise<void> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { z } = await import("zod");
  const answers = [
    (input: Record<string, unknown>) => ({ behavior: "allow", updatedInput: input }),
    (input: Record<string, unknown>) => ({ behavior: "allow", updatedInput: { ...input, command: "echo changed-by-the-person" } }),
    () => ({ behavior: "deny", message: "the person said no: not this file" }),
  ];
  let n = 0;
  const server = new McpServer({ name: "rec", version: "0" });
  server.registerTool("permission", { description: "permission prompt", inputSchema: z.looseObject({ tool_name: z.string(), input: z.record(z.string(), z.unknown()) }) }, (args) => {
    const answer = answers[Math.min(n++, answers.length - 1)]!(args.input);
    appendFileSync(log, `${JSON.stringify({ arguments: args, answer })}\n`);
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  });
  await server.connect(new StdioServerTransport());
}

async function record(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), "troupe-perm-rec-"));
  const repo = join(tmp, "repo");
  const log = join(tmp, "calls.jsonl");
  writeFileSync(log, "");
  mkdirSync(repo);
  await initGitRepo(repo);
  const results: unknown[] = [];
  const api = startFakeAnthropic((req) => {
    const step = turnIndex(req);
    if (step > 0) results.push(lastToolResult(req));
    return [[bash("touch first.txt")], [bash("touch second.txt")], [bash("touch third.txt")]][step] ?? [text("done")];
  });
  try {
    const mcp = { mcpServers: { rec: { type: "stdio", command: process.execPath, args: [import.meta.path, "serve", log] } } };
    const run = await runClaude(["-p", "--output-format", "stream-json", "--verbose", "--mcp-config", JSON.stringify(mcp), "--permission-prompt-tool", "mcp__rec__permission", "--", "go"], {
      cwd: repo,
      env: (({ IS_SANDBOX: _, ...env }) => env)(claudeEnv(api.url, join(tmp, "home"))),
      timeoutMs: 120_000,
    });
    const version = run.events.find((e) => e.type === "system")?.claude_code_version;
    const calls = readFileSync(log, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l) as unknown);
    const out = { claudeCodeVersion: version, note: "raw tools/call arguments Claude Code sent the permission prompt tool, the JSON text answered, and the tool_result the model then saw", calls, modelSaw: results, exitCode: run.exitCode };
    writeFileSync(join(ROOT, "tests", "fixtures", "claude", "permission-prompt.json"), `${JSON.stringify(out, null, 2)}\n`);
    console.log(JSON.stringify(out, null, 2));
  } finally {
    await api.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === "serve") await serve(process.argv[3]!);
else await record();
