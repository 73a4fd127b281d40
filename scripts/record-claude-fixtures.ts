/**
 * Re-records tests/fixtures/claude/ from the real Claude Code CLI (the dev dependency), offline:
 * each case runs in a fresh temp HOME and git repo, against tests/support/fake-anthropic.ts on
 * 127.0.0.1 or against a closed port. The argv is the one providers/claude/provider.ts builds.
 *
 *   bun scripts/record-claude-fixtures.ts [case ...]
 *
 * Each case writes <case>.stdout.jsonl, <case>.stderr.txt and <case>.meta.json.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { claude, claudeInputLine } from "../providers/claude/provider.ts";
import type { CommandInput, ProviderCommand } from "../providers/types.ts";
import {
  apiError,
  bash,
  claudeEnv,
  findInHistory,
  initGitRepo,
  runClaude,
  sequence,
  startFakeAnthropic,
  text,
  toolUse,
  turnIndex,
  usageWindowHeaders,
  type FakeAnthropic,
  type Script,
  type StdinIo,
} from "../tests/support/fake-anthropic.ts";
import { runSync } from "./lib/process.ts";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = join(ROOT, "tests", "fixtures", "claude");
/** Without it a failing API is retried 10 times over ~3 minutes; one retry keeps the api_retry line. */
const FEW_RETRIES = { CLAUDE_CODE_MAX_RETRIES: "1" };
const CLOSED_PORT_URL = "http://127.0.0.1:9";

interface Dirs {
  tmp: string;
  repo: string;
  home: string;
  bin: string;
}

interface Case {
  name: string;
  description: string;
  /** Null: ANTHROPIC_BASE_URL points at a closed port. */
  script: ((dirs: Dirs) => Script) | null;
  /** Rate-limit headers on every successful reply (a subscription's usage windows). */
  limits?: () => Record<string, string>;
  env?: Record<string, string>;
  /** Variables removed from the default env, e.g. the API key for the OAuth case. */
  unset?: string[];
  command: (dirs: Dirs) => ProviderCommand;
  /** Runs first in the same dirs, e.g. the session a resume continues. */
  before?: string;
  /** Keeps stdin open after the prompt: sees each stdout event, writes more user messages, closes it. */
  onEvent?: (event: Record<string, unknown>, io: StdinIo) => void;
}

const input = (dirs: Dirs, prompt: string): CommandInput => ({ prompt, cwd: dirs.repo, permissions: "skip", env: {} });

/** A stand-in for `troupe signal` on PATH, so a scenario can end the way a real agent does. */
function troupeShim(bin: string): void {
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, "troupe");
  writeFileSync(
    shim,
    `#!/bin/sh
# fixture stand-in for: troupe signal done --result TEXT
f="\${TROUPE_SIGNAL_FILE:-.troupe/output/signal.json}"
mkdir -p "$(dirname "$f")"
printf '{"status":"%s","result":"%s"}\\n' "$2" "$4" > "$f"
echo "signal written: $2"
`,
  );
  chmodSync(shim, 0o755);
}

const sessions = new Map<string, string>();

/** The ids the live-input case gives its two further lines (they come back in the echoes). */
const LIVE_IDS = { during: "11111111-1111-4111-8111-000000000001", after: "11111111-1111-4111-8111-000000000002" };

/**
 * live-input: the second message is written as the first Bash tool is called (it runs 2 s), the third
 * after the first result; stdin is closed after the second result.
 */
function liveInput(): (event: Record<string, unknown>, io: StdinIo) => void {
  let results = 0;
  let wrote = false;
  return (event, io) => {
    const message = event.message as { content?: { type?: string }[] } | undefined;
    if (event.type === "assistant" && message?.content?.some((b) => b.type === "tool_use") && !wrote) {
      wrote = true;
      io.write(`${claudeInputLine("SECOND: also write b.txt", LIVE_IDS.during)}\n`);
    }
    if (event.type !== "result") return;
    results++;
    if (results === 1) io.write(`${claudeInputLine("THIRD: say bye", LIVE_IDS.after)}\n`);
    else io.end();
  };
}

const CASES: Case[] = [
  {
    name: "success",
    description: "a tool loop: Bash commit, Write, a failing Bash, `troupe signal done`, final text",
    script: (d) =>
      sequence(
        [
          [text("I'll create the file and commit it."), bash("echo hi > a.txt && git add a.txt && git commit -m 'add a.txt'", "Create and commit a.txt")],
          [toolUse("Write", { file_path: join(d.repo, "notes.md"), content: "# notes\n" })],
          [bash("exit 3", "Fail on purpose")],
          [bash("troupe signal done --result ok", "Signal completion")],
          [text("finished")],
        ],
        "finished",
      ),
    command: (d) => claude.buildSpawn(input(d, "Create a.txt, commit it, then signal done.")),
  },
  {
    name: "live-input",
    description:
      "stdin kept open: a second user message written while a Bash tool runs (folded in after its result), a third after the first result (a new turn), then stdin closed",
    script: () => (req) => {
      const seen = JSON.stringify(req.messages);
      if (seen.includes("THIRD")) return [text("bye")];
      if (seen.includes("SECOND") && !seen.includes("b.txt written")) return seen.includes("echo b > b.txt") ? [text("b.txt written")] : [bash("echo b > b.txt", "Write b.txt")];
      return turnIndex(req) === 0 ? [bash("sleep 2 && echo a > a.txt", "Write a.txt slowly")] : [text("a.txt written")];
    },
    onEvent: liveInput(),
    command: (d) => claude.buildSpawn(input(d, "FIRST: write a.txt")),
  },
  {
    name: "resume",
    description: "--resume of the success session; the script reads ANSWER: from the history",
    before: "success",
    script: () => (req) => {
      const answer = findInHistory(req, /ANSWER: (\w+)/)?.[1];
      if (turnIndex(req) === 0 && answer) return [bash(`echo ${answer} > answer.txt && git add answer.txt && git commit -m answer`, "Record the answer")];
      return [text(`resumed; history had ${req.messages.length} messages`)];
    },
    command: (d) => claude.buildResume!({ ...input(d, "ANSWER: blue"), sessionId: sessions.get("success")! }),
  },
  {
    name: "no-server",
    description: "ANTHROPIC_BASE_URL at a closed 127.0.0.1 port (CLAUDE_CODE_MAX_RETRIES=1)",
    script: null,
    env: FEW_RETRIES,
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "auth-401",
    description: "the API answers 401 authentication_error (CLAUDE_CODE_MAX_RETRIES=1: Claude Code retries 401s too)",
    script: () => () => apiError(401, "authentication_error", "invalid x-api-key"),
    env: FEW_RETRIES,
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "rate-limit-429",
    description: "API-key user, the API answers 429 rate_limit_error with retry-after: 1",
    script: () => () => apiError(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit", { "retry-after": "1" }),
    env: FEW_RETRIES,
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "usage-limit",
    description: "subscription (CLAUDE_CODE_OAUTH_TOKEN) user, 429 with anthropic-ratelimit-unified-status: rejected (5-hour limit)",
    script: () => () => {
      const reset = String(Math.floor(Date.now() / 1000) + 3600);
      return apiError(429, "rate_limit_error", "This request would exceed your account's rate limit. Please try again later.", {
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": reset,
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
      });
    },
    env: { ...FEW_RETRIES, CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-fixture" },
    unset: ["ANTHROPIC_API_KEY"],
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "usage-window",
    description: "subscription user, a reply whose headers say 5-hour window 91 % used (allowed_warning), 7-day 40 %",
    script: () => () => [text("Done.")],
    limits: () => usageWindowHeaders(0.91, Date.now() + 3_600_000),
    env: { CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-fixture" },
    unset: ["ANTHROPIC_API_KEY"],
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "usage-limit-weekly",
    description: "subscription user, 429 rejected on the seven-day limit",
    script: () => () => {
      const reset = String(Math.floor(Date.now() / 1000) + 3 * 86400);
      return apiError(429, "rate_limit_error", "This request would exceed your account's rate limit. Please try again later.", {
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": reset,
        "anthropic-ratelimit-unified-representative-claim": "seven_day",
      });
    },
    env: { ...FEW_RETRIES, CLAUDE_CODE_OAUTH_TOKEN: "sk-ant-oat01-fixture" },
    unset: ["ANTHROPIC_API_KEY"],
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "credit-low",
    description: "the API answers 400 'credit balance is too low' (billing_error)",
    script: () => () =>
      apiError(400, "invalid_request_error", "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."),
    env: FEW_RETRIES,
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "overloaded-529",
    description: "the API answers 529 overloaded_error",
    script: () => () => apiError(529, "overloaded_error", "Overloaded"),
    env: FEW_RETRIES,
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "timeout",
    description: "the API never answers; API_TIMEOUT_MS=1500",
    script: () => () => new Promise(() => {}),
    env: { ...FEW_RETRIES, API_TIMEOUT_MS: "1500" },
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "not-logged-in",
    description: "no API key and no login at all",
    script: null,
    unset: ["ANTHROPIC_API_KEY"],
    command: (d) => claude.buildSpawn(input(d, "do it")),
  },
  {
    name: "resume-missing",
    description: "--resume of a session id this config dir never saw",
    script: null,
    command: (d) => claude.buildResume!({ ...input(d, "carry on"), sessionId: "11111111-2222-4333-8444-555555555555" }),
  },
  {
    name: "root-no-sandbox",
    description: "--dangerously-skip-permissions as root without IS_SANDBOX (recorded only when run as root)",
    script: null,
    unset: ["IS_SANDBOX"],
    // The provider's env (IS_SANDBOX=1 as root) is left out on purpose.
    command: (d) => ({ argv: claude.buildSpawn(input(d, "do it")).argv }),
  },
];

async function record(c: Case, dirs: Dirs): Promise<void> {
  let fake: FakeAnthropic | undefined;
  try {
    fake = c.script ? startFakeAnthropic(c.script(dirs), { limits: c.limits }) : undefined;
    const cmd = c.command(dirs);
    const env: Record<string, string> = { ...claudeEnv(fake?.url ?? CLOSED_PORT_URL, dirs.home, c.env), ...cmd.env };
    env.PATH = `${dirs.bin}:${env.PATH}`;
    for (const k of c.unset ?? []) delete env[k];
    const run = await runClaude(cmd.argv.slice(1), { cwd: dirs.repo, env, timeoutMs: 120_000, ...(cmd.stdin !== undefined && { stdin: cmd.stdin }), ...(c.onEvent && { onEvent: c.onEvent }) });
    const session = run.events.find((e) => e.type === "system" && e.subtype === "init")?.session_id;
    if (typeof session === "string") sessions.set(c.name, session);

    const git = runSync(["git", "log", "--oneline"], { cwd: dirs.repo }).stdout.toString().trim().split("\n");
    const meta = {
      case: c.name,
      description: c.description,
      argv: ["claude", ...cmd.argv.slice(1)].map((a) => a.replaceAll(dirs.tmp, "$TMP")),
      env: Object.fromEntries(Object.entries(env).filter(([k]) => k !== "PATH").map(([k, v]) => [k, v.replaceAll(dirs.tmp, "$TMP")])),
      exitCode: run.exitCode,
      durationMs: run.durationMs,
      gitLog: git,
      fakeServerRequests: fake?.requests.map((r) => `${r.method} ${r.path} (${r.kind})`) ?? [],
      mainRequestMessageCounts: fake?.mainRequests().map((r) => r.messages.length) ?? [],
      recordedWith: runSync([join(ROOT, "node_modules", ".bin", "claude"), "--version"], { env }).stdout.trim(),
    };
    writeFileSync(join(OUT, `${c.name}.stdout.jsonl`), run.stdout);
    writeFileSync(join(OUT, `${c.name}.stderr.txt`), run.stderr);
    writeFileSync(join(OUT, `${c.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    console.log(`${c.name}: exit ${run.exitCode}, ${run.durationMs} ms, ${run.stdout.split("\n").filter(Boolean).length} stdout lines, ${run.stderr.length} bytes stderr`);
  } finally {
    await fake?.stop();
  }
}

const wanted = new Set(process.argv.slice(2));
mkdirSync(OUT, { recursive: true });
const groups = new Map<string, Dirs>();
for (const c of CASES) {
  if (wanted.size && !wanted.has(c.name) && !(c.name === "success" && wanted.has("resume"))) continue;
  if (c.name === "root-no-sandbox" && process.getuid?.() !== 0) {
    console.log(`${c.name}: skipped (not root)`);
    continue;
  }
  let dirs = c.before ? groups.get(c.before) : undefined;
  if (!dirs) {
    const tmp = mkdtempSync(join(tmpdir(), "troupe-claude-fixture-"));
    dirs = { tmp, repo: join(tmp, "repo"), home: join(tmp, "home"), bin: join(tmp, "bin") };
    mkdirSync(dirs.repo, { recursive: true });
    mkdirSync(dirs.home, { recursive: true });
    troupeShim(dirs.bin);
    await initGitRepo(dirs.repo);
  }
  groups.set(c.name, dirs);
  await record(c, dirs);
}
for (const dirs of new Set(groups.values())) rmSync(dirs.tmp, { recursive: true, force: true });
