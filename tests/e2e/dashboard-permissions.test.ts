/**
 * Permission requests answered in the compiled dashboard in tmux, with the real Claude Code CLI
 * under `--permissions ask` against the scripted Messages API: allowed with `a` + `enter`,
 * denied with a reason the model receives, and a request pending across a `kill -9` of the daemon.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { bash, findInHistory, lastToolResult, text, turnIndex } from "../support/fake-anthropic.ts";

const claude = useClaudeTroupe();
const { server, scripts } = claude;
let term: Terminal | null = null;

afterEach(() => {
  term?.close();
  term = null;
});

const sandbox = (): Sandbox => claude.sandbox();

/** One Bash call the person is asked about, then `troupe signal done` (an allow rule lets it through) with what the call's result said. */
function oneCall(name: string, command: string): void {
  scripts.set(name, (req) => {
    const step = turnIndex(req);
    if (step === 0) return [bash(command)];
    if (step === 1) {
      const r = lastToolResult(req);
      const said = `${r?.isError ? "refused: " : "ran: "}${(r?.text ?? "nothing").replace(/["`$\\]/g, "")}`;
      return [bash(`troupe signal done --result "${said}"`)];
    }
    return [text("Done.")];
  });
}

/** Writes and commits a file (an agent that leaves changes uncommitted is resumed to commit them), printing its text. */
const COMMIT = (file: string, text: string) => `echo ${text} > ${file} && git add ${file} && git commit -qm "add ${file}" && cat ${file}`;

async function spawnAsking(s: Sandbox, name: string): Promise<void> {
  await s.json(["spawn", "--provider", "claude", "--permissions", "ask", "--allow", "Bash(troupe signal *)", "--name", name, "--prompt", "Run the command.", "--json"]);
}

async function agent(s: Sandbox, name: string): Promise<Agent | undefined> {
  return (await s.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
}

/** The agent's run ended (the CLI exited after its last turn), done or not. */
const ended = (s: Sandbox, name: string, ms = 60_000) =>
  waitFor(`${name} to end`, async () => {
    const a = await agent(s, name);
    return a && !["running", "starting"].includes(a.status) ? a : undefined;
  }, ms);

/** What the model received after its Bash call: the scripted server's record of the tool result. */
function toolResultSeen(name: string): { text: string; isError: boolean } | undefined {
  for (const req of server.mainRequests()) {
    if (findInHistory(req, /You are agent "([a-z0-9-]+)"/)?.[1] !== name || turnIndex(req) !== 1) continue;
    return lastToolResult(req);
  }
  return undefined;
}

function daemonLog(s: Sandbox): string {
  try {
    return readFileSync(join(s.dir, ".troupe", "daemon.log"), "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no daemon.log)";
  }
}

async function explained<T>(s: Sandbox, step: Promise<T>): Promise<T> {
  try {
    return await step;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- daemon.log ---\n${daemonLog(s)}\n--- screen ---\n${term?.screen() ?? ""}`);
  }
}

describe.skipIf(!HAVE_TMUX)("permission requests from the real Claude Code CLI, answered in the dashboard", () => {
  test("a Bash call under ask waits; a + enter allows it once, it runs and the agent finishes (80x24)", async () => {
    const s = sandbox();
    oneCall("gatekeeper", COMMIT("ran.txt", "allowed-ran"));
    term = new Terminal(s, 80, 24);
    await term.openDashboard();
    await spawnAsking(s, "gatekeeper");
    const screen = await explained(s, term.waitFor("$ echo allowed-ran > ran.txt && git add", 60_000));
    expect(screen).toMatch(/! +gatekeeper/);
    for (const l of screen.split("\n")) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(80);
    // nothing ran yet: the call waits for the person
    expect((await agent(s, "gatekeeper"))?.status).toBe("running");
    expect(toolResultSeen("gatekeeper")).toBeUndefined();

    term.keys("a");
    await term.waitFor("allow once");
    term.keys("Enter");
    await explained(s, term.waitFor("allowed Bash once for gatekeeper"));
    const a = await explained(s, ended(s, "gatekeeper"));
    expect(a).toMatchObject({ status: "done", result: "ran: allowed-ran" });
    expect(toolResultSeen("gatekeeper")).toEqual({ text: "allowed-ran", isError: false });
    expect(s.git("show", `${a.branch}:ran.txt`)).toBe("allowed-ran\n");
    await term.waitForNot(/! +gatekeeper/);
  }, 180_000);

  test("denied with a reason: the model receives the reason and the agent goes on", async () => {
    const s = sandbox();
    oneCall("denied", "rm -rf build");
    term = new Terminal(s);
    await term.openDashboard();
    await spawnAsking(s, "denied");
    await explained(s, term.waitFor("$ rm -rf build", 60_000));
    term.keys("a");
    await term.waitFor("allow once");
    term.keys("Up", "Enter"); // deny (the last choice), then to its reason
    await term.waitFor(/› ● deny|> ● deny|Reason/);
    term.type("not now: use git clean -n first");
    term.keys("Enter");
    await explained(s, term.waitFor("denied Bash to denied"));
    const a = await explained(s, ended(s, "denied"));
    const seen = toolResultSeen("denied");
    expect(seen?.isError).toBe(true);
    expect(seen?.text).toContain("not now: use git clean -n first");
    // it went on: its next turn signalled done with what it was told
    expect(a.status).toBe("done");
    expect(a.result).toContain("refused: not now: use git clean -n first");
  }, 180_000);

  test("kill -9 of the daemon while a request is pending loses nothing: shown again, allowing it lets the agent finish", async () => {
    const s = sandbox();
    oneCall("survivor", COMMIT("survived.txt", "survived"));
    term = new Terminal(s);
    await term.openDashboard();
    await spawnAsking(s, "survivor");
    await explained(s, term.waitFor("$ echo survived > survived.txt && git add", 60_000));
    const before = await s.json<PermissionRequest[]>(["permissions", "--json"]);
    expect(before.map((r) => r.status)).toEqual(["pending"]);

    const killed = await s.daemonPid();
    await s.killDaemon();
    // the next request starts a daemon (the permission tool's reconnecting wait may start it first,
    // so the dashboard's "daemon not reachable" can come and go between two captures); it reconnects
    expect((await agent(s, "survivor"))?.status).toBe("running");
    expect(await s.daemonPid()).not.toBe(killed);
    await explained(s, term.waitForNot("daemon not reachable", 30_000));
    // the new daemon holds the same request, still pending (the permission tool's wait reconnected to it)
    expect((await s.json<PermissionRequest[]>(["permissions", "--json"])).map((r) => [r.id, r.status])).toEqual(before.map((r) => [r.id, "pending"]));
    await explained(s, term.waitFor("$ echo survived > survived.txt && git add"));
    term.keys("a");
    await term.waitFor("allow once");
    term.keys("Enter");
    await explained(s, term.waitFor("allowed Bash once for survivor"));
    const a = await explained(s, ended(s, "survivor"));
    expect(a).toMatchObject({ status: "done", result: "ran: survived" });
    expect(toolResultSeen("survivor")).toEqual({ text: "survived", isError: false });
    expect(s.git("show", `${a.branch}:survived.txt`)).toBe("survived\n");
  }, 240_000);
});
