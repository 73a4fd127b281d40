import { afterAll, afterEach } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import type { Agent } from "../../src/protocol/entities.ts";
import { claudeEnv, findInHistory, startFakeAnthropic, text, type FakeAnthropic, type Script } from "./fake-anthropic.ts";
import { CLI_BIN } from "./cli-bin.ts";
import { Sandbox, waitFor } from "./sandbox.ts";

/**
 * Real Claude Code agents under troupe against one scripted Messages API: each agent gets its
 * own script, told apart by the name troupe puts in its prompt ("You are agent NAME"). Call it
 * once at a test file's top level: it registers the hooks that clear the scripts and close each
 * test's sandbox after it, and stop the server after the file.
 */
export interface ClaudeTroupe {
  /** The scripted API; what it recorded is cleared after every test. */
  readonly server: FakeAnthropic;
  /** The agents' HOME (Claude Code's own config, `.claude.json`, lives there). */
  readonly home: string;
  /** Each agent's script by name; cleared after every test. */
  readonly scripts: Map<string, Script>;
  /** A new sandbox whose agents run the real `claude` (and `troupe` on PATH) against the server. */
  sandbox(): Sandbox;
  /** The current test's sandbox. */
  readonly sb: Sandbox;
  agent(name: string): Promise<Agent | undefined>;
  /** The agent once it is done, failed or waiting. */
  ended(name: string, timeoutMs?: number): Promise<Agent>;
}

/** `route`: what the model says to each request, for a file that scripts by prompt rather than by agent (then `scripts` is unused). */
/** `sandboxed`: its agents run in their sandbox (tests/support/sandbox.ts). */
export function useClaudeTroupe(route?: Script, opts: { sandboxed?: boolean } = {}): ClaudeTroupe {
  const scripts = new Map<string, Script>();
  // started at once (not in beforeAll) so a test file can destructure it at its top level
  const byAgent: Script = (req) => {
    const who = findInHistory(req, /You are agent "([a-z0-9-]+)"/)?.[1];
    const script = who ? scripts.get(who) : undefined;
    return script ? script(req) : [text(`no script for ${who}`)];
  };
  const server = startFakeAnthropic(route ?? byAgent);
  const home = mkdtempSync(join(tmpdir(), "troupe-claude-home-"));
  let current: Sandbox | undefined;

  afterAll(async () => {
    await server.stop();
    rmSync(home, { recursive: true, force: true });
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
    scripts.clear();
    server.requests.splice(0);
    server.mainRequests().splice(0);
  });

  const sandbox = (): Sandbox => {
    current = new Sandbox({ sandboxed: opts.sandboxed });
    Object.assign(current.env, claudeEnv(server.url, home, { PATH: `${CLI_BIN}:${process.env.PATH}` }));
    return current;
  };
  const sb = (): Sandbox => {
    if (!current) throw new Error("no sandbox: call sandbox() first");
    return current;
  };
  const agent = async (name: string) => (await sb().json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

  return {
    server,
    home,
    scripts,
    sandbox,
    get sb() {
      return sb();
    },
    agent,
    ended: (name, timeoutMs = 60_000) =>
      waitFor(
        `${name} to end`,
        async () => {
          const a = await agent(name);
          return a && ["done", "failed", "waiting"].includes(a.status) ? a : undefined;
        },
        timeoutMs,
      ),
  };
}
