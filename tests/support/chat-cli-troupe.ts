import { afterAll, afterEach, expect } from "bun:test";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import { chatCliEnv, type ChatCli } from "../../scripts/chat-cli-setup.ts";
import { killProcessesUnder } from "../../scripts/stragglers.ts";
import { findInHistory, shell, startFakeChat, turnIndex, type ChatScript, type FakeChat } from "../../scripts/fake-chat-completions.ts";
import { CLI_BIN } from "./cli-bin.ts";
import { Sandbox, waitFor } from "./sandbox.ts";

/**
 * A real agent CLI that speaks to an OpenAI-compatible API (opencode, Kilo, Copilot CLI, Qwen
 * Code, Cline, pi) under troupe, offline, against one scripted fake model. The CLIs come from
 * CLI_BIN (tests/support/cli-bin.ts). Call it once
 * at a test file's top level: it closes each test's sandbox after it and the server after the file.
 */

const QUESTION = "Which colour should the button be?";

/**
 * The model of the proving loop: asked to style a button, it runs `troupe signal questions`; once
 * resumed with the answer (`A: teal`, as troupe puts answers in the resume prompt) it runs
 * `troupe signal done` with it. Any other turn is a short text.
 */
const askThenFinish: ChatScript = (req) => {
  const answer = findInHistory(req, /A: (\w+)/)?.[1];
  if (turnIndex(req) > 0) return { text: answer ? "Done." : "Waiting for an answer." };
  return shell(req, answer ? `troupe signal done --result "button is ${answer}"` : `troupe signal questions --question "${QUESTION}"`);
};

export interface ChatCliTroupe {
  readonly server: FakeChat;
  /** A sandbox whose agents run the real CLI against the server (its state in a fresh HOME); `script`: the model for this test, else the file's. */
  sandbox(script?: ChatScript): Promise<Sandbox>;
  /** The agent once it is done, failed or waiting. */
  ended(sb: Sandbox, name: string, session?: number): Promise<Agent>;
}

export function useChatCliTroupe(cli: ChatCli, script: ChatScript = askThenFinish): ChatCliTroupe {
  let active = script;
  const server = startFakeChat((req) => active(req));
  let current: Sandbox | undefined;
  afterEach(async () => {
    active = script;
    if (!current) return;
    const runtime = current.runtime;
    await current.close();
    // what a CLI left running past its agent (Cline's hub daemon) has the sandbox's HOME
    killProcessesUnder(runtime);
    current = undefined;
  });
  afterAll(() => server.stop());
  return {
    server,
    async sandbox(own) {
      if (own) active = own;
      current = new Sandbox({ sandboxed: true });
      const home = join(current.runtime, "home");
      Object.assign(current.env, { HOME: home, PATH: `${CLI_BIN}:${process.env.PATH}` });
      Object.assign(current.env, await chatCliEnv(cli, server.url, home, CLI_BIN));
      return current;
    },
    ended: (sb, name, session = 1) =>
      waitFor(
        `${name} to end session ${session}`,
        async () => {
          const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
          return a && a.session === session && ["done", "failed", "waiting"].includes(a.status) ? a : undefined;
        },
        240_000,
      ),
  };
}

/**
 * The loop each provider is proven with: spawned through troupe, the agent runs a tool call
 * (`troupe signal questions`) that `logs` shows with its result, waits, is resumed in the same
 * session with the answer, and ends with `troupe signal done` carrying it. Returns its sandbox, for
 * what a provider's own test checks beside.
 */
export async function proveLoop(t: ChatCliTroupe, provider: string): Promise<Sandbox> {
  const sb = await t.sandbox();
  await sb.json(["spawn", "--provider", provider, "--name", "styler", "--prompt", "Style the button.", "--json"]);
  const waiting = await t.ended(sb, "styler");
  expect(waiting, JSON.stringify(waiting)).toMatchObject({ status: "waiting", questions: [{ id: "q1", question: QUESTION }] });
  expect(waiting.providerSessionId).toBeTruthy();
  const logs = (await sb.run(["logs", "styler"])).stdout;
  expect(logs).toContain("troupe signal questions");
  expect(logs).toContain("⎿");

  const r = await sb.run(["resume", "styler", "--answer", "q1=teal"]);
  expect(r).toMatchObject({ code: 0, stdout: "styler resumed (session 2)\n" });
  const done = await t.ended(sb, "styler", 2);
  expect(done, JSON.stringify(done)).toMatchObject({ status: "done", result: "button is teal", providerSessionId: waiting.providerSessionId });
  // the resumed run carried the first session's history: the question is in the request that has the answer
  const resumed = t.server.mainRequests.find((q) => JSON.stringify(q.messages).includes("A: teal"));
  expect(JSON.stringify(resumed?.messages)).toContain(QUESTION);
  expect((await sb.run(["logs", "styler"])).stdout).toContain("troupe signal done");
  return sb;
}
