import { afterAll, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { composeAgents } from "../../../src/agents/compose.ts";
import { EventBus } from "../../../src/events/bus.ts";
import { Logger } from "../../../src/events/log.ts";
import { createStore } from "../../../src/store/index.ts";
import { Sandbox, waitFor } from "../../support/sandbox.ts";
import { fakeClaude, resultLine } from "../../support/fake-claude.ts";

/**
 * failRunWith, as the work model's proposal parsing calls it after a run ended `done` with a file
 * that does not parse: the agent use cases on a real store and repo (no daemon: the test sends each
 * run's signal through them, as `troupe signal` does, then lets the stand-in CLI exit).
 */
const sb = new Sandbox();
afterAll(() => sb.close());

test("bad_output after a run ended resumes its session once with what is malformed; a second one fails it", async () => {
  const log = new Logger(join(sb.runtime, "daemon.log"));
  const store = createStore(join(sb.runtime, "t.db"), log);
  const bus = new EventBus(store.events, log);
  const ws = { root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, socketExplicit: true };
  const agents = composeAgents({ ws, store, bus, log, binDir: sb.runtime });
  agents.runtime.start();
  try {
    const argsFile = join(sb.runtime, "args");
    // each run waits for its go file (go-first, then go-<the session it resumes>): its signal is sent through the service first
    const body = `echo '${resultLine("ok")}'; while [ ! -f ${sb.runtime}/go-\${resumed:-first} ]; do sleep 0.05; done`;
    const env = { PATH: `${fakeClaude(sb.runtime, argsFile, body)}:${process.env.PATH}` };
    // unsandboxed: the stand-in CLI waits on files in the runtime folder, under /tmp, which a sandbox has its own of
    const a = await agents.spawn.spawn({ provider: "claude", prompt: "plan it", name: "planner", worktree: false, env, sandbox: "off" });
    const get = () => agents.query.get(a.id);
    const signalRun = async (session: number, result: string) => {
      await waitFor(`session ${session} to run`, () => (get().status === "running" && get().session === session ? true : undefined));
      agents.signal.signal(store.agents.get(a.id)!, { status: "done", result });
      writeFileSync(join(sb.runtime, session === 1 ? "go-first" : "go-fake-session"), "");
    };
    await signalRun(1, "first");
    await waitFor("the first run to end", () => (get().status === "done" ? true : undefined));
    expect(get()).toMatchObject({ result: "first", attempt: 1 });

    const failed = agents.retry.failRunWith("planner", "bad_output", "proposal.json: phases[0].title is missing");
    expect(failed).toMatchObject({ status: "starting", failure: { class: "bad_output", attempt: 1 } });
    await signalRun(2, "fixed");
    await waitFor("the resumed run to end", () => (get().status === "done" && get().session === 2 ? true : undefined));
    expect(get()).toMatchObject({ result: "fixed", attempt: 2, failure: { class: "bad_output", attempt: 1 } });
    expect(readFileSync(argsFile, "utf8")).toContain("--resume\nfake-session\n");

    // a second malformed output is not recovered again
    expect(agents.retry.failRunWith("planner", "bad_output", "still malformed")).toMatchObject({ status: "failed", failure: { class: "bad_output", attempt: 2 }, error: "still malformed" });
    expect(() => agents.retry.failRunWith("nobody", "bad_output", "x")).toThrow("no agent 'nobody'");
  } finally {
    await agents.runtime.shutdown();
    store.close();
  }
}, 30_000);
