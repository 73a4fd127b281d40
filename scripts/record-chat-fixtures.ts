/**
 * Records tests/fixtures/<cli>/ from the real CLIs that speak to OpenAI-compatible endpoints
 * (opencode, Kilo, Copilot CLI, Qwen Code, Cline, pi), installed as dev dependencies, offline:
 * each case runs in a fresh temp HOME against scripts/fake-chat-completions.ts on 127.0.0.1 (or a
 * closed port), set up as scripts/chat-cli-setup.ts does for the e2e tests.
 *
 *   bun scripts/record-chat-fixtures.ts [opencode] [kilo] [copilot] [qwen] [cline] [pi] [--only=auth-401,...]
 *
 * Run it where nothing but 127.0.0.1 is reachable, to be sure nothing else is asked:
 *   unshare -n sh -c 'ip link set lo up && bun scripts/record-chat-fixtures.ts'
 *
 * Cases: success (one shell tool call, then an answer), resume (of success, in plan mode, for a
 * CLI that resumes), auth-401, quota-429 and no-server (the last two cut at a deadline where the
 * CLI retries for ever). The CLIs run one after another, their cases side by side. A CLI driven
 * over ACP runs under troupe's runner (`troupe acp-run`, from src/), as the daemon starts it: its
 * fixture is the runner's lines, the frames both ways.
 */
import { join } from "node:path";
import { getProvider } from "../providers/index.ts";
import type { Provider, ProviderCommand } from "../providers/types.ts";
import { CHAT_CLIS, chatCliEnv, type ChatCli } from "./chat-cli-setup.ts";
import { shell, startFakeChat, turnIndex, type FakeChat } from "./fake-chat-completions.ts";
import { underRunner } from "../src/agents/start/mcp-config.ts";
import { BIN, gitRepo, input, local, Recorder, ROOT, sessionIdFrom } from "./recorder.ts";

const PROMPT = "Run `echo hello from the tool` and tell me what it printed.";
const CLOSED_PORT = "http://127.0.0.1:9/v1";

const FAILURES = {
  "auth-401": {
    status: 401,
    body: { error: { message: "Incorrect API key provided: test.", type: "invalid_request_error", param: null, code: "invalid_api_key" } },
  },
  "quota-429": {
    status: 429,
    body: { error: { message: "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", param: null, code: "insufficient_quota" } },
  },
} as const;

/** A scripted turn: run `command` first, then answer. */
const scripted = (command: string, answer: string, fail?: { status: number; body: unknown }): FakeChat =>
  startFakeChat((req) => (turnIndex(req) === 0 ? shell(req, command) : { text: answer }), fail ? { fail } : {});

/** The command as run here: the CLI from node_modules/.bin, an ACP one under the runner of this checkout's troupe. */
function argvOf(cmd: ProviderCommand): string[] {
  const agent = { ...cmd, argv: local(cmd) };
  if (!cmd.acp) return agent.argv;
  const [, ...runner] = underRunner(agent, "troupe", false).argv;
  return [join(ROOT, "node_modules", ".bin", "bun"), join(ROOT, "src", "main.ts"), ...runner];
}

async function recordCli(cli: ChatCli): Promise<void> {
  const p: Provider = getProvider(cli)!;
  const r = new Recorder(p);
  const repo = gitRepo(join(r.tmp, "repo"));

  async function once(name: string, description: string, cmd: ProviderCommand, server: FakeChat | null, deadlineMs: number, home = r.home(name)) {
    const env = { ...r.baseEnv(home), ...(await chatCliEnv(cli, server?.url ?? CLOSED_PORT, home, BIN)), ...cmd.env };
    return { home, result: await r.record({ name, description, argv: argvOf(cmd), cwd: repo, env, deadlineMs, stdin: cmd.stdin, ...(server && { server }) }) };
  }

  async function successThenResume(): Promise<void> {
    const ok = await once("success", `${p.displayName} against the fake model (${cli === "codex-acp" ? "its Responses API" : "a Chat Completions API"}): one shell tool call, then an answer`, p.buildSpawn(input(PROMPT, repo)), scripted("echo hello from the tool", "The command printed: hello from the tool. Done."), 180_000);
    if (!p.buildResume) return;
    const sessionId = sessionIdFrom(p, ok.result.stdout);
    if (!sessionId) throw new Error(`${cli} success run printed no session id`);
    const cmd = p.buildResume({ ...input("A: teal. Run it again.", repo, { permissions: "plan" }), sessionId });
    // the same home: the session lives there
    await once("resume", `the success case's session resumed in plan mode, with an answer`, cmd, scripted("echo answer teal", "Resumed with the answer teal. Done."), 180_000, ok.home);
  }

  // generous deadlines: on a loaded machine the larger CLIs take a minute to get to their first request
  const cases: Record<string, () => Promise<unknown>> = {
    success: successThenResume,
    "auth-401": () => once("auth-401", "the fake API answers 401 invalid_api_key", p.buildSpawn(input(PROMPT, repo)), scripted("true", "", FAILURES["auth-401"]), 240_000),
    "quota-429": () => once("quota-429", "the fake API answers 429 insufficient_quota (a spent account)", p.buildSpawn(input(PROMPT, repo)), scripted("true", "", FAILURES["quota-429"]), 150_000),
    "no-server": () => once("no-server", "nothing listens on the endpoint's port", p.buildSpawn(input(PROMPT, repo)), null, 150_000),
  };
  await Promise.all(Object.entries(cases).filter(([name]) => only.length === 0 || only.includes(name)).map(([, run]) => run())).finally(() => r.cleanup());
}

const args = process.argv.slice(2);
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",") ?? [];
const wanted = args.filter((a): a is ChatCli => (CHAT_CLIS as readonly string[]).includes(a));
for (const cli of wanted.length ? wanted : CHAT_CLIS) await recordCli(cli);
