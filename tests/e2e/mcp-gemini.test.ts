/**
 * The real Gemini CLI gets troupe's MCP server as troupe configures it (its own settings file
 * through GEMINI_CLI_SYSTEM_SETTINGS_PATH), and the server acts with the agent's identity: the
 * model's first turn calls troupe's spawn_agent tool, and the agent it starts is the caller's child.
 * (Codex defers MCP tools behind its tool_search, which the fake Responses API does not drive yet.)
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { startFakeGemini, type FakeServer } from "../../scripts/fake-model-servers.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
/** Writable by others: Gemini CLI ignores a settings file below such a folder. */
function openToOthers(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d) && (statSync(d).mode & 0o002) !== 0) return true;
    if (dirname(d) === d) return false;
  }
}
// the checkout's own cache, unless the checkout itself sits under /tmp (a fresh CI clone may): then the user's
const SECURE_TMP = [join(ROOT, "node_modules", ".cache", "troupe-e2e"), join(homedir(), ".cache", "troupe-e2e")].find((d) => !openToOthers(d)) ?? join(homedir(), ".cache", "troupe-e2e");
let server: FakeServer | undefined;
afterEach(async () => {
  server?.stop();
  await sb?.close();
});

/** `secureDir`: the workspace in a folder no other user may write to (Gemini CLI skips a settings file below one that is, as /tmp). */
function cliSandbox(env: Record<string, string>, secureDir = false): Sandbox {
  const tmp = process.env.TMPDIR;
  if (secureDir) {
    mkdirSync(SECURE_TMP, { recursive: true, mode: 0o755 });
    process.env.TMPDIR = SECURE_TMP;
  }
  try {
    sb = new Sandbox();
  } finally {
    if (tmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmp;
  }
  const home = join(sb.runtime, "home");
  mkdirSync(home, { recursive: true });
  Object.assign(sb.env, { HOME: home, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, ...env });
  return sb;
}

const spawnKid = { command: "troupe signal done --result kid", prompt: "be a kid", name: "kid", worktree: false };

async function kidOf(parentName: string): Promise<void> {
  const kid = await waitFor("the kid the agent spawned through MCP", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "kid" && a.status === "done"), 90_000);
  const parent = (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === parentName)!;
  expect(kid.parentId).toBe(parent.id);
}

test("Gemini CLI calls troupe's spawn_agent (mcp_troupe_spawn_agent) as itself", async () => {
  server = await startFakeGemini({ tool: { name: "mcp_troupe_spawn_agent", args: spawnKid }, answer: "Done." });
  cliSandbox({ GEMINI_API_KEY: "test", GOOGLE_GEMINI_BASE_URL: server.url }, true);
  const account = join(sb.runtime, "gemini-account");
  mkdirSync(join(account, ".gemini"), { recursive: true });
  writeFileSync(join(account, ".gemini", "settings.json"), JSON.stringify({ security: { auth: { selectedType: "gemini-api-key" } } }));
  sb.env.GEMINI_CLI_HOME = account;
  await sb.json(["spawn", "--provider", "gemini", "--name", "gem", "--prompt", "Start a kid.", "--no-worktree", "--json"]);
  await kidOf("gem");
}, 120_000);
