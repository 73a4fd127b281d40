/**
 * The real Claude Code CLI with troupe's MCP server, as troupe configures it for every agent:
 * a supervisor calls mcp__troupe__handoff, a worker (real Claude too) ends with its result, and
 * the supervisor gets that result back in the same turn and ends with it. The model is a
 * scripted local Messages API.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { bash, claudeEnv, findInHistory, lastToolResult, startFakeAnthropic, text, toolUse, turnIndex, type FakeAnthropic, type ScriptRequest, type Turn } from "../support/fake-anthropic.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const scripts = new Map<string, (req: ScriptRequest) => Turn>();
let server: FakeAnthropic;
let home: string;
let sb: Sandbox;

beforeAll(() => {
  server = startFakeAnthropic((req) => {
    const who = findInHistory(req, /You are agent "([a-z0-9-]+)"/)?.[1];
    const script = who ? scripts.get(who) : undefined;
    return script ? script(req) : [text(`no script for ${who}`)];
  });
  home = mkdtempSync(join(tmpdir(), "troupe-claude-home-"));
});
afterAll(() => {
  server.stop();
  rmSync(home, { recursive: true, force: true });
});
afterEach(async () => {
  scripts.clear();
  await sb?.close();
});

test("a supervisor's mcp__troupe__handoff returns its worker's result in the same turn", async () => {
  sb = new Sandbox();
  Object.assign(sb.env, claudeEnv(server.url, home, { PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}` }));
  let handed: { text: string; isError: boolean } | undefined;
  scripts.set("boss", (req) => {
    if (turnIndex(req) === 0) return [toolUse("mcp__troupe__handoff", { provider: "claude", name: "helper", message: "Count the files.", worktree: false, timeoutSeconds: 120 })];
    handed ??= lastToolResult(req);
    // the fake API joins the result's blocks: the text, then the worker as JSON
    const result = handed?.text.match(/Its result:\n\n([^{\n]*)/)?.[1] ?? `no result: ${handed?.text}`;
    return turnIndex(req) === 1 ? [bash(`troupe signal done --result "boss got: ${result}"`)] : [text("Done.")];
  });
  scripts.set("helper", (req) => [[bash(`troupe signal done --result "3 files"`)]][turnIndex(req)] ?? [text("Done.")]);

  await sb.json(["spawn", "--provider", "claude", "--name", "boss", "--prompt", "Hand the counting to a worker.", "--no-worktree", "--json"]);
  const boss = await waitFor(
    "boss to end",
    async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "boss");
      return a && ["done", "failed", "waiting"].includes(a.status) ? a : undefined;
    },
    90_000,
  );
  expect(handed?.isError).toBe(false);
  expect(boss).toMatchObject({ status: "done", result: "boss got: 3 files" });
  const helper = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "helper")!;
  expect(helper).toMatchObject({ status: "done", result: "3 files", parentId: boss.id, provider: "claude" });
}, 120_000);
