import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { needed } from "./tools.ts";
import {
  apiError,
  bash,
  CLAUDE_BIN,
  claudeEnv,
  findInHistory,
  initGitRepo,
  lastToolResult,
  runClaude,
  sequence,
  startFakeAnthropic,
  text,
  turnIndex,
  type FakeAnthropic,
  type ScriptRequest,
} from "./fake-anthropic.ts";

const CLI_ARGS = ["-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--"];
const CLI_TIMEOUT = 60_000;

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), "fake-anthropic-test-"));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function workspace(name: string): Promise<{ repo: string; home: string; env: (url: string) => Record<string, string> }> {
  const repo = join(tmp, name, "repo");
  const home = join(tmp, name, "home");
  const bin = join(tmp, name, "bin");
  for (const d of [repo, home, bin]) mkdirSync(d, { recursive: true });
  // `troupe signal` stand-in: what a real agent runs to end its work.
  writeFileSync(join(bin, "troupe"), `#!/bin/sh\nmkdir -p .troupe/output\nprintf '{"status":"%s","result":"%s"}' "$2" "$4" > .troupe/output/signal.json\n`);
  chmodSync(join(bin, "troupe"), 0o755);
  await initGitRepo(repo);
  return { repo, home, env: (url) => ({ ...claudeEnv(url, home), PATH: `${bin}:${process.env.PATH}` }) };
}

const git = (repo: string, ...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo }).stdout.toString();

describe("fake Anthropic server over HTTP", () => {
  let fake: FakeAnthropic;
  const seen: ScriptRequest[] = [];
  beforeAll(() => {
    fake = startFakeAnthropic((req) => {
      seen.push(req);
      return req.messages.length > 1 ? apiError(429, "rate_limit_error", "slow down") : [text("hello"), bash("ls")];
    });
  });
  afterAll(() => fake.stop());

  const post = (body: unknown, path = "/v1/messages") =>
    fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const main = { model: "m", tools: [{ name: "Bash" }], messages: [{ role: "user", content: "go" }] };

  test("streams a turn as Messages API server-sent events", async () => {
    const res = await post({ ...main, stream: true });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(events[4].content_block).toMatchObject({ type: "tool_use", name: "Bash" });
    const json = events.filter((e) => e.delta?.type === "input_json_delta").map((e) => e.delta.partial_json).join("");
    expect(JSON.parse(json)).toEqual({ command: "ls", description: "Run a command" });
    expect(events[8].delta.stop_reason).toBe("tool_use");
  });

  test("answers without streaming, side requests, count_tokens and errors", async () => {
    const plain = await (await post(main)).json();
    expect(plain).toMatchObject({ type: "message", stop_reason: "tool_use", content: [{ type: "text", text: "hello" }, { type: "tool_use", name: "Bash" }] });

    const before = seen.length;
    const side = (await (await post({ model: "haiku", messages: [{ role: "user", content: "title please" }] })).json()) as { content: unknown };
    expect(side.content).toEqual([{ type: "text", text: "ok" }]);
    expect(seen.length).toBe(before);

    expect(await (await post(main, "/v1/messages/count_tokens")).json()).toHaveProperty("input_tokens");
    const err = await post({ ...main, messages: [...main.messages, { role: "assistant", content: "x" }] });
    expect(err.status).toBe(429);
    expect(await err.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error", message: "slow down" } });

    expect(fake.requests.map((r) => r.kind)).toEqual(["main", "main", "side", "other", "main"]);
  });
});

describe.skipIf(!needed("the Claude Code CLI (npm install)", existsSync(CLAUDE_BIN)))("the real Claude Code CLI against it", () => {
  test(
    "runs a tool loop: commits a file and signals done",
    async () => {
      const ws = await workspace("loop");
      const fake = startFakeAnthropic(
        sequence([
          [text("Making the file."), bash("echo hi > a.txt && git add a.txt && git commit -m 'add a.txt'")],
          [bash("troupe signal done --result ok")],
          [text("finished")],
        ]),
      );
      try {
        const run = await runClaude([...CLI_ARGS, "do it"], { cwd: ws.repo, env: ws.env(fake.url), timeoutMs: CLI_TIMEOUT });
        expect(run.stderr).toBe("");
        expect(run.exitCode).toBe(0);
        expect(readFileSync(join(ws.repo, "a.txt"), "utf8")).toBe("hi\n");
        expect(git(ws.repo, "log", "--format=%s")).toStartWith("add a.txt\n");
        expect(JSON.parse(readFileSync(join(ws.repo, ".troupe/output/signal.json"), "utf8"))).toEqual({ status: "done", result: "ok" });
        expect(run.events.at(-1)).toMatchObject({ type: "result", is_error: false, result: "finished" });

        const mains = fake.mainRequests();
        expect(mains.map(turnIndex)).toEqual([0, 1, 2]);
        expect(lastToolResult(mains[1]!)?.text).toContain("add a.txt");
        expect(fake.requests.some((r) => r.kind === "main" && r.headers["x-api-key"] === "test")).toBe(true);
      } finally {
        await fake.stop();
      }
    },
    CLI_TIMEOUT,
  );

  test(
    "a resumed session sends the earlier history and the new prompt",
    async () => {
      const ws = await workspace("resume");
      const first = startFakeAnthropic(sequence([[bash("echo one > one.txt")], [text("first done")]]));
      let sessionId: string;
      try {
        const run = await runClaude([...CLI_ARGS, "start"], { cwd: ws.repo, env: ws.env(first.url), timeoutMs: CLI_TIMEOUT });
        expect(run.exitCode).toBe(0);
        sessionId = String(run.events.find((e) => e.subtype === "init")?.session_id);
      } finally {
        await first.stop();
      }

      const second = startFakeAnthropic((req) => {
        const answer = findInHistory(req, /ANSWER: (\w+)/)?.[1];
        if (turnIndex(req) === 0 && answer) return [bash(`echo ${answer} > answer.txt`)];
        return [text("resumed")];
      });
      try {
        const args = ["-p", "--output-format", "stream-json", "--verbose", "--dangerously-skip-permissions", "--resume", sessionId, "--", "ANSWER: blue"];
        const run = await runClaude(args, { cwd: ws.repo, env: ws.env(second.url), timeoutMs: CLI_TIMEOUT });
        expect(run.exitCode).toBe(0);
        expect(run.events.find((e) => e.subtype === "init")?.session_id).toBe(sessionId);
        expect(readFileSync(join(ws.repo, "answer.txt"), "utf8")).toBe("blue\n");

        const history = JSON.stringify(second.mainRequests()[0]!.messages);
        expect(history).toContain("echo one > one.txt");
        expect(history).toContain("first done");
        expect(history).toContain("ANSWER: blue");
      } finally {
        await second.stop();
      }
    },
    CLI_TIMEOUT * 2,
  );
});
