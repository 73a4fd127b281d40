import { afterEach } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
/** A fake model server: what the sandbox stops after its test. */
type FakeServer = { stop(): void };
import { CLI_BIN } from "./cli-bin.ts";
import { Sandbox, waitFor } from "./sandbox.ts";

/**
 * One real agent CLI (Codex, Gemini CLI) under troupe against one fake model server per test: a
 * sandbox with a fresh HOME and the CLIs on PATH, closed with its server after each test. Call
 * it once at a test file's top level.
 */
/** `sandboxed`: its agents run in their sandbox (tests/support/sandbox.ts). */
export function useCliSandbox(opts: { sandboxed?: boolean } = {}) {
  let sb: Sandbox | undefined;
  let server: FakeServer | undefined;
  afterEach(async () => {
    server?.stop();
    await sb?.close();
    sb = server = undefined;
  });
  return {
    /** A sandbox whose agents see `env`, and `fake` stopped after the test; its workspace in `parent` when given. */
    sandbox(env: Record<string, string>, fake?: FakeServer, parent?: string): Sandbox {
      server = fake;
      sb = new Sandbox({ ...(parent !== undefined && { parent }), sandboxed: opts.sandboxed });
      const home = join(sb.runtime, "home");
      mkdirSync(home, { recursive: true });
      Object.assign(sb.env, { HOME: home, PATH: `${CLI_BIN}:${process.env.PATH}`, ...env });
      return sb;
    },
    /** The agent once it is done, failed or waiting, within `ms`. */
    ended(s: Sandbox, name: string, ms = 90_000): Promise<Agent> {
      return waitFor(
        `${name} to end`,
        async () => {
          const a = (await s.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
          return a && ["done", "failed", "waiting"].includes(a.status) ? a : undefined;
        },
        ms,
      );
    },
  };
}
