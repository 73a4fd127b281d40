/**
 * A daemon of one runtime and clients of the other, on one workspace: the Bun build (dist/troupe)
 * and the Deno build (dist/troupe-deno, npm run build:deno) speak the same socket API and share
 * the same store file (bun:sqlite on one side, node:sqlite on the other), both ways round. The
 * agent's side (ask, signal) and the dashboard run on the runtime the daemon does not.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT, Sandbox, runtimeOfPid as runtimeOf, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { needed } from "../support/tools.ts";

const BUILDS = { bun: join(ROOT, "dist", "troupe"), deno: join(ROOT, "dist", "troupe-deno") } as const;
type Runtime = keyof typeof BUILDS;
/** Both builds must call themselves the same build, or the newer one would replace the other's daemon (by design). */
const SAME_BUILD = { TROUPE_TEST_BUILD_VERSION: "0.1.0+1" };

let sb: Sandbox;
let term: Terminal | null = null;
afterEach(async () => {
  term?.close();
  term = null;
  await sb.close();
});

const run = async (runtime: Runtime, args: string[]) => {
  const p = Bun.spawn([BUILDS[runtime], ...args], { cwd: sb.dir, env: { ...sb.env, ...SAME_BUILD }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`${runtime} troupe ${args.join(" ")} exited ${code}: ${stderr}`);
  return stdout;
};


// it drives both builds itself: once, in the Bun pass (not again when TROUPE_BIN points the suites at Deno)
const both = !process.env.TROUPE_BIN && needed("dist/troupe and dist/troupe-deno (.ci/run builds both first)", existsSync(BUILDS.bun) && existsSync(BUILDS.deno));

describe.skipIf(!both || !HAVE_TMUX)("a daemon of one runtime, clients of the other", () => {
  for (const [daemon, client] of [["deno", "bun"], ["bun", "deno"]] as const) {
    test(`${daemon} daemon; ${client} agent side and dashboard; then a ${client} daemon on the same store`, async () => {
      sb = new Sandbox();
      const started = JSON.parse(await run(daemon, ["daemon", "start", "--json"])) as { pid: number };
      expect(runtimeOf(started.pid)).toBe(daemon);

      // the agent's own troupe is the daemon's; it asks and signals through the other runtime's
      const other = BUILDS[client];
      const q = (s: string) => `'${s}'`;
      // (an agent gets no TROUPE_ variable of its spawner's: it names the shared build itself)
      const as = `TROUPE_TEST_BUILD_VERSION=${SAME_BUILD.TROUPE_TEST_BUILD_VERSION} ${q(other)}`;
      const cmd = `a=$(${as} ask "ship it?" --user) && ${as} signal done --result "got:$a"`;
      await run(client, ["spawn", "--no-worktree", "--name", "mixed", "--command", cmd, "--json"]);

      term = new Terminal(sb);
      await term.openDashboard(`env TROUPE_TEST_BUILD_VERSION=${SAME_BUILD.TROUPE_TEST_BUILD_VERSION} ${other}`);
      await term.waitFor("1 needs you");
      term.keys("a");
      await term.waitFor("mixed asks: ship it?");
      term.keys("yes", "Enter");
      const done = await waitFor("mixed done", async () => {
        const [a] = JSON.parse(await run(client, ["ls", "--json"])) as { status: string; result: string | null }[];
        return a?.status === "done" && a;
      });
      expect(done.result).toBe("got:yes");
      term.keys("q");
      term.close();
      term = null;

      // the other runtime's daemon takes over the same store: the agent and its answered question are there
      await run(daemon, ["daemon", "stop"]);
      const next = JSON.parse(await run(client, ["daemon", "start", "--json"])) as { pid: number };
      expect(runtimeOf(next.pid)).toBe(client);
      const [kept] = JSON.parse(await run(daemon, ["ls", "--json"])) as { name: string; result: string }[];
      expect(kept).toMatchObject({ name: "mixed", result: "got:yes" });
      const conversations = JSON.parse(await run(daemon, ["conversations", "--json"])) as { question: string; answer: string }[];
      expect(conversations).toMatchObject([{ question: "ship it?", answer: "yes" }]);
      await run(client, ["daemon", "stop"]);
    }, 90_000);
  }
});
