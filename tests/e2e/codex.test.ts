/**
 * The real Codex CLI (from npm) under troupe, offline: a scripted 127.0.0.1 stand-in for its
 * model API (scripts/fake-responses.ts) plays the model, whose shell calls the CLI runs in the
 * agent's worktree: `troupe signal` by the absolute path, as a model would (Codex runs tools in a
 * login shell, whose profile resets PATH).
 */
import { expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { BIN, waitFor } from "../support/sandbox.ts";
import { useCliSandbox } from "../support/cli-sandbox.ts";
import { foundTool, responsesTurnIndex, startFakeResponses, toldSoFar, type ResponsesRequest, type ResponsesScript, type ResponsesTurn } from "../../scripts/fake-responses.ts";
import { writeCodexConfig } from "../../scripts/codex-home.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const cli = useCliSandbox({ sandboxed: true });

/** A sandbox whose Codex talks to `script` (its own CODEX_HOME naming the fake as its provider), and the fake. */
async function codexSandbox(script: ResponsesScript) {
  const server = await startFakeResponses(script);
  const sb = cli.sandbox({ OPENAI_API_KEY: "test" }, server);
  const codexHome = join(sb.runtime, "codex-home");
  writeCodexConfig(codexHome, server.url);
  sb.env.CODEX_HOME = codexHome;
  // Codex makes its sandbox's helpers under CODEX_HOME only outside the temporary folder, where the test's is
  sb.env.TMPDIR = join(sb.runtime, "tmp");
  mkdirSync(sb.env.TMPDIR, { recursive: true });
  return { sb, server };
}

const shell = (cmd: string): ResponsesTurn => ({ tool: "exec_command", args: { cmd } });

/** The model: each prompt's first turn is `first(req)`, then it says `answer`. */
const oneCall = (first: (req: ResponsesRequest) => ResponsesTurn, answer = "Done."): ResponsesScript => (req) => (responsesTurnIndex(req) === 0 ? first(req) : { text: answer });

test("Codex runs the tool call in its worktree and ends with troupe signal done", async () => {
  const { sb } = await codexSandbox(oneCall(() => shell(`${BIN} signal done --result "codex ran in $(basename "$PWD")"`)));
  await sb.json(["spawn", "--provider", "codex", "--name", "cody", "--prompt", "Signal that you are done.", "--json"]);
  const a = await cli.ended(sb, "cody");
  expect(a).toMatchObject({ status: "done", result: "codex ran in cody" });
  expect(a.providerSessionId).toBeTruthy();
  expect(a.inputTokens).toBeGreaterThan(0);
  // the tool call as the log shows it: the build's own name (troupe, troupe-deno) and the command
  expect((await sb.run(["logs", "cody"])).stdout).toContain(`${basename(BIN)} signal done`);
}, 120_000);

for (const mode of ["edits", "plan"] as const) {
  test(`Codex in ${mode}: its sandboxed command reaches troupe (troupe signal done), ${mode === "plan" ? "and writes nothing" : "and writes the worktree"}`, async () => {
    // under .troupe/ (never committed): a change to the worktree would have troupe resume the agent
    const { sb } = await codexSandbox(oneCall(() => shell(`touch .troupe/wrote.txt; ${BIN} signal done --result "signalled"`)));
    await sb.json(["spawn", "--provider", "codex", "--name", mode, "--prompt", "Signal that you are done.", "--permissions", mode, "--json"]);
    const a = await cli.ended(sb, mode);
    expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "signalled", session: 1 });
    expect(existsSync(join(a.cwd, ".troupe", "wrote.txt"))).toBe(mode === "edits");
  }, 120_000);
}

const QUESTION = "Which color should the button be?";

test("Codex asks through troupe signal, is resumed with the answer in the same session (codex exec resume), and ends done", async () => {
  const { sb, server } = await codexSandbox(
    oneCall((req) => (toldSoFar(req).includes("teal") ? shell(`${BIN} signal done --result "button is teal"`) : shell(`${BIN} signal questions --question "${QUESTION}"`))),
  );
  await sb.json(["spawn", "--provider", "codex", "--name", "styler", "--prompt", "Style the button.", "--json"]);
  const waiting = await cli.ended(sb, "styler");
  expect(waiting, JSON.stringify(waiting)).toMatchObject({ status: "waiting", questions: [{ id: "q1", question: QUESTION }] });
  expect(waiting.providerSessionId).toBeTruthy();
  expect(await sb.run(["resume", "styler", "--answer", "q1=teal"])).toMatchObject({ code: 0, stdout: "styler resumed (session 2)\n" });
  const done = await waitFor("styler to end session 2", async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "styler");
    return a?.session === 2 && a.status === "done" ? a : undefined;
  }, 90_000);
  expect(done).toMatchObject({ result: "button is teal", providerSessionId: waiting.providerSessionId });
  // the resumed run carried the first session's history: the question is in the request that has the answer
  const resumed = server.requests.find((r) => toldSoFar(r).includes("teal"));
  expect(JSON.stringify(resumed?.input)).toContain(QUESTION);
}, 180_000);

test("Codex finds troupe's spawn_agent by its tool search and calls it over MCP as itself: the kid is its child, the tool's answer reaches the model", async () => {
  const kid = { command: "troupe signal done --result kid", prompt: "be a kid", name: "kid", worktree: false };
  const { sb, server } = await codexSandbox((req) => {
    const turn = responsesTurnIndex(req);
    if (turn === 0) return { toolSearch: "spawn_agent" };
    if (turn === 1) {
      const found = foundTool(req, "mcp__troupe", "spawn_agent");
      return found ? { ...found, args: kid } : { text: "the tool search found no mcp__troupe.spawn_agent" };
    }
    if (turn === 2) return shell(`${BIN} signal done --result "spawned"`);
    return { text: "Done." };
  });
  await sb.json(["spawn", "--provider", "codex", "--name", "parent", "--prompt", "Start a kid.", "--no-worktree", "--json"]);
  const parent = await cli.ended(sb, "parent");
  expect(parent, JSON.stringify(parent)).toMatchObject({ status: "done", result: "spawned" });
  const child = await waitFor("the kid spawned through MCP", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "kid" && a.status === "done"), 90_000);
  expect(child.parentId).toBe(parent.id);
  const answered = server.requests.find((r) => responsesTurnIndex(r) === 2);
  expect(toldSoFar(answered!)).toContain("kid");
}, 180_000);
