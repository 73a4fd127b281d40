/**
 * Re-records tests/fixtures/{codex,gemini}/ from the real CLIs installed as dev dependencies,
 * offline: each case runs in a fresh temp HOME (no login), either against the real endpoints
 * (which fail without network) or against fake-model-servers.ts on 127.0.0.1.
 *
 *   bun scripts/record-provider-fixtures.ts [codex] [gemini]
 *
 * Each case writes <case>.stdout.jsonl, <case>.stderr.txt and <case>.meta.json (argv, exit
 * code, whether it was killed at its deadline, the requests the fake server saw).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codex } from "../providers/codex.ts";
import { gemini } from "../providers/gemini.ts";
import { startFakeGemini, startFakeOpenAI, type FakeFailure } from "./fake-model-servers.ts";
import { BIN, gitRepo, input, local, Recorder, sessionIdFrom } from "./recorder.ts";
import { writeCodexConfig } from "./codex-home.ts";

// ---------- codex ----------

const OPENAI_401 = {
  status: 401,
  body: {
    error: {
      message: "Incorrect API key provided: test. You can find your API key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      param: null,
      code: "invalid_api_key",
    },
  },
};

const OPENAI_429 = {
  status: 429,
  body: {
    error: {
      message: "You exceeded your current quota, please check your plan and billing details.",
      type: "insufficient_quota",
      param: null,
      code: "insufficient_quota",
    },
  },
};

async function recordCodex(): Promise<void> {
  const r = new Recorder(codex);
  const prompt = "Run `echo hello from the tool` and tell me what it printed.";
  const answer = "The command printed: hello from the tool. Done.";
  const repo = gitRepo(join(r.tmp, "repo"));

  // A real successful run (one shell tool call, then a text answer), then its resume.
  async function successThenResume(): Promise<void> {
    const home = r.home("success");
    const codexHome = join(home, "codex-account");
    let server = await startFakeOpenAI({ command: "echo hello from the tool", answer });
    writeCodexConfig(codexHome, server.url);
    const env = { ...r.baseEnv(home), CODEX_HOME: codexHome, OPENAI_API_KEY: "test" };
    const ok = await r.record({
      name: "success",
      description: "codex exec against a fake Responses API: exec_command tool call, then an answer",
      argv: local(codex.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env,
      deadlineMs: 60_000,
      server,
    });
    const sessionId = sessionIdFrom(codex, ok.stdout);
    if (!sessionId) throw new Error("codex success run printed no thread id");
    server = await startFakeOpenAI({ command: "echo resumed", answer: "Resumed: the command printed resumed." });
    writeCodexConfig(codexHome, server.url);
    await r.record({
      name: "resume",
      description: "codex exec resume <thread id> of the success case, in plan (read-only) mode",
      argv: local(codex.buildResume!({ ...input("Run it again.", repo, { permissions: "plan" }), sessionId })),
      cwd: repo,
      env,
      deadlineMs: 60_000,
      server,
    });
  }

  async function httpError(name: string, failure: FakeFailure, description: string): Promise<void> {
    const h = r.home(name);
    const server = await startFakeOpenAI({ command: "true", answer: "", fail: failure });
    writeCodexConfig(join(h, "codex-account"), server.url);
    await r.record({
      name,
      description,
      argv: local(codex.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: { ...r.baseEnv(h), CODEX_HOME: join(h, "codex-account"), OPENAI_API_KEY: "test" },
      deadlineMs: 60_000,
      server,
    });
  }

  // No login, no network: codex keeps reconnecting forever, so the run is cut at a deadline.
  async function offline(name: string, apiKey: string | undefined): Promise<void> {
    const h = r.home(name);
    await r.record({
      name,
      description: `default OpenAI endpoint without network${apiKey ? ", OPENAI_API_KEY=test" : ", no login and no API key"}`,
      argv: local(codex.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: { ...r.baseEnv(h), ...(apiKey ? { OPENAI_API_KEY: apiKey } : {}) },
      deadlineMs: 20_000,
    });
  }

  // What happens without --skip-git-repo-check outside a repo (troupe always passes it).
  async function notGit(): Promise<void> {
    const h = r.home("not-git");
    const plain = join(r.tmp, "not-git", "plain");
    mkdirSync(plain, { recursive: true });
    await r.record({
      name: "not-git",
      description: "codex exec --json outside a git repository, without --skip-git-repo-check",
      argv: [join(BIN, "codex"), "exec", "--json", "--", prompt],
      cwd: plain,
      env: { ...r.baseEnv(h), OPENAI_API_KEY: "test" },
      deadlineMs: 20_000,
    });
  }

  try {
    await Promise.all([
      successThenResume(),
      httpError("auth-401", OPENAI_401, "the fake API answers 401 invalid_api_key"),
      httpError("quota-429", OPENAI_429, "the fake API answers 429 insufficient_quota"),
      offline("offline-no-login", undefined),
      offline("offline-api-key", "test"),
      notGit(),
    ]);
  } finally {
    r.cleanup();
  }
}

// ---------- gemini ----------

function geminiSettings(home: string): void {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(join(home, ".gemini", "settings.json"), `${JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } })}\n`);
}

const GEMINI_400 = {
  status: 400,
  body: {
    error: {
      code: 400,
      message: "API key not valid. Please pass a valid API key.",
      status: "INVALID_ARGUMENT",
      details: [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }],
    },
  },
};

const GEMINI_429 = {
  status: 429,
  body: {
    error: {
      code: 429,
      message:
        "You exceeded your current quota, please check your plan and billing details. Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 0",
      status: "RESOURCE_EXHAUSTED",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.QuotaFailure",
          violations: [
            {
              quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
              quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
            },
          ],
        },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "86400s" },
      ],
    },
  },
};

async function recordGemini(): Promise<void> {
  const r = new Recorder(gemini);
  const prompt = "List the files in this folder and tell me what is there.";
  const tool = { name: "list_directory", args: { dir_path: "." } };
  const repo = gitRepo(join(r.tmp, "repo"));

  // A real successful run (list_directory, then a streamed answer), then its resume.
  async function successThenResume(): Promise<void> {
    const home = r.home("success");
    const account = join(home, "gemini-account");
    geminiSettings(account);
    const env = (url: string) => ({ ...r.baseEnv(home), GEMINI_CLI_HOME: account, GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: url });
    let server = await startFakeGemini({ tool, answer: "The folder holds README.md and nothing else. Done." });
    const ok = await r.record({
      name: "success",
      description: "gemini -p against a fake Gemini API: list_directory tool call, then a streamed answer",
      argv: local(gemini.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: env(server.url),
      deadlineMs: 90_000,
      server,
    });
    const sessionId = sessionIdFrom(gemini, ok.stdout);
    if (!sessionId) throw new Error("gemini success run printed no session id");
    server = await startFakeGemini({ tool, answer: "Still just README.md. Done." });
    await r.record({
      name: "resume",
      description: "gemini --resume <session id> of the success case, in plan mode",
      argv: local(gemini.buildResume!({ ...input("Look again.", repo, { permissions: "plan" }), sessionId })),
      cwd: repo,
      env: env(server.url),
      deadlineMs: 90_000,
      server,
    });
  }

  async function httpError(name: string, failure: FakeFailure, description: string): Promise<void> {
    const h = r.home(name);
    geminiSettings(h);
    const server = await startFakeGemini({ tool, answer: "", fail: failure });
    await r.record({
      name,
      description,
      argv: local(gemini.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: { ...r.baseEnv(h), GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.url },
      deadlineMs: 120_000,
      server,
    });
  }

  async function noAuth(): Promise<void> {
    const h = r.home("no-auth");
    await r.record({
      name: "no-auth",
      description: "fresh HOME: no login, no API key, no auth method chosen",
      argv: local(gemini.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: r.baseEnv(h),
      deadlineMs: 60_000,
    });
  }

  // Gemini retries a failed fetch with backoff for minutes before it gives up on its own.
  async function offline(): Promise<void> {
    const h = r.home("offline");
    await r.record({
      name: "offline",
      description: "fresh HOME, GEMINI_API_KEY=test (auth picked from the variable), real endpoint without network",
      argv: local(gemini.buildSpawn(input(prompt, repo))),
      cwd: repo,
      env: { ...r.baseEnv(h), GEMINI_API_KEY: "test" },
      deadlineMs: 420_000,
    });
  }

  async function untrusted(): Promise<void> {
    const h = r.home("untrusted");
    geminiSettings(h);
    await r.record({
      name: "untrusted",
      description: "headless run without --skip-trust in a folder never trusted (troupe always passes it)",
      argv: [join(BIN, "gemini"), "--output-format", "stream-json", `--prompt=${prompt}`],
      cwd: repo,
      env: { ...r.baseEnv(h), GEMINI_API_KEY: "test" },
      deadlineMs: 60_000,
    });
  }

  try {
    await Promise.all([
      successThenResume(),
      httpError("auth-400", GEMINI_400, "the fake API answers 400 API_KEY_INVALID"),
      httpError("quota-429", GEMINI_429, "the fake API answers 429 RESOURCE_EXHAUSTED (per-day quota)"),
      noAuth(),
      offline(),
      untrusted(),
    ]);
  } finally {
    r.cleanup();
  }
}

const wanted = process.argv.slice(2);
const all = wanted.length === 0;
await Promise.all([
  all || wanted.includes("codex") ? recordCodex() : undefined,
  all || wanted.includes("gemini") ? recordGemini() : undefined,
]);
