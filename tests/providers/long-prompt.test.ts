/**
 * A prompt too long for the command line reaches the model whole, through the real CLIs (from
 * npm, offline: a fake model API on 127.0.0.1), run exactly as the provider builds them, with
 * stdin a file as the launcher makes it.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claude } from "../../providers/claude/provider.ts";
import { codex } from "../../providers/codex.ts";
import { gemini } from "../../providers/gemini.ts";
import type { Provider } from "../../providers/types.ts";
import { writeCodexConfig } from "../../scripts/codex-home.ts";
import { startFakeGemini, startFakeOpenAI, type FakeServer } from "../../scripts/fake-model-servers.ts";
import { claudeEnv, startFakeAnthropic, text } from "../support/fake-anthropic.ts";
import { ROOT } from "../support/sandbox.ts";

const BIN = join(ROOT, "node_modules", ".bin");
const tmp = mkdtempSync(join(tmpdir(), "troupe-long-prompt-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

// Starts with "-" and holds a marker at each end: the model must see all of it, as a prompt.
const PROMPT = `-begin-of-prompt ${"lorem ipsum ".repeat(200 * 1024 / 12)} end-of-prompt`;

/** Forwards to `target` and notes whether each request body held the whole prompt. */
function recordingProxy(target: string): { url: string; sawPrompt: () => boolean; stop: () => void } {
  const seen: boolean[] = [];
  const t = new URL(target);
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.text();
      if (body) seen.push(body.includes("-begin-of-prompt") && body.includes("end-of-prompt"));
      return fetch(`${t.origin}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body });
    },
  });
  return { url: target.replace(t.origin, `http://127.0.0.1:${server.port}`), sawPrompt: () => seen.includes(true), stop: () => server.stop(true) };
}

function gitRepo(name: string): string {
  const dir = join(tmp, name, "repo");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "README.md"), "# demo\n");
  for (const args of [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]]) Bun.spawnSync(["git", ...args], { cwd: dir });
  return dir;
}

async function runBuilt(p: Provider, cwd: string, env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string; argvBytes: number }> {
  const cmd = p.buildSpawn({ prompt: PROMPT, cwd, permissions: "skip", env: {} });
  // a CLI taking input mid-run gets the prompt as the first line of its stream (stdin at its end here closes it)
  expect(cmd.stdin).toBe(p.liveInput ? `${p.liveInput.line(PROMPT)}\n` : PROMPT);
  const inPath = join(cwd, "..", "prompt.in");
  writeFileSync(inPath, cmd.stdin!);
  const stdin = openSync(inPath, "r");
  try {
    const [bin, ...args] = cmd.argv;
    // an ACP agent runs under troupe's runner, which sends the prompt in its first session/prompt
    const runner = cmd.acp ? [join(ROOT, "dist", "troupe"), "acp-run", "--permissions", cmd.acp.permissions, ...(cmd.acp.mode ? ["--mode", cmd.acp.mode] : []), "--"] : [];
    const proc = Bun.spawn([...runner, join(BIN, bin!), ...args], { cwd, env: { ...env, ...cmd.env }, stdin, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    return { code, stdout, stderr, argvBytes: cmd.argv.reduce((n, a) => n + Buffer.byteLength(a), 0) };
  } finally {
    closeSync(stdin);
  }
}

const baseEnv = (home: string) => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: home, TERM: "dumb", LANG: "C.UTF-8" });

describe("a 200 KB prompt reaches the model whole, through stdin", () => {
  test("claude -p", async () => {
    const server = startFakeAnthropic(() => [text("ok")]);
    const proxy = recordingProxy(server.url);
    try {
      const repo = gitRepo("claude");
      const r = await runBuilt(claude, repo, claudeEnv(proxy.url, join(tmp, "claude")));
      expect(r.code, r.stderr).toBe(0);
      expect(r.argvBytes).toBeLessThan(4096);
      expect(proxy.sawPrompt()).toBe(true);
    } finally {
      proxy.stop();
      await server.stop();
    }
  }, 60_000);

  test("codex exec", async () => {
    let server: FakeServer | undefined;
    const proxy = recordingProxy((server = await startFakeOpenAI({ command: "true", answer: "ok" })).url);
    try {
      const repo = gitRepo("codex");
      const home = join(tmp, "codex");
      const codexHome = join(home, "account");
      writeCodexConfig(codexHome, proxy.url);
      const r = await runBuilt(codex, repo, { ...baseEnv(home), CODEX_HOME: codexHome, OPENAI_API_KEY: "test" });
      expect(r.code, r.stderr).toBe(0);
      expect(r.argvBytes).toBeLessThan(4096);
      expect(proxy.sawPrompt()).toBe(true);
    } finally {
      proxy.stop();
      server?.stop();
    }
  }, 60_000);

  test("gemini, over ACP: the first line of its runner's stdin, sent as its first prompt", async () => {
    const server = await startFakeGemini({ tool: { name: "list_directory", args: { dir_path: "." } }, answer: "ok" });
    const proxy = recordingProxy(server.url);
    try {
      const repo = gitRepo("gemini");
      const home = join(tmp, "gemini");
      const account = join(home, "account");
      mkdirSync(join(account, ".gemini"), { recursive: true });
      writeFileSync(join(account, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
      const r = await runBuilt(gemini, repo, { ...baseEnv(home), GEMINI_CLI_HOME: account, GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: proxy.url });
      expect(r.code, r.stderr).toBe(0);
      expect(r.argvBytes).toBeLessThan(4096);
      expect(proxy.sawPrompt()).toBe(true);
    } finally {
      proxy.stop();
      server.stop();
    }
  }, 90_000);
});
