import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";

/** Each run of the command leaves one file: agent|id|reason|text. */
const RECORD = `f=$(mktemp "$CALLS/call.XXXXXX") && printf '%s|%s|%s|%s' "$TROUPE_AGENT" "$TROUPE_AGENT_ID" "$TROUPE_REASON" "$TROUPE_TEXT" > "$f"`;
const ASK = `troupe signal questions --question "which database?"`;

let sb: Sandbox;
let calls: string;

/** The user config with `notify`; its agents unsandboxed, as the harness has them (tests/support/sandbox.ts). */
function writeUserConfig(notify: Record<string, unknown>): void {
  const dir = join(sb.env.XDG_CONFIG_HOME!, "troupe");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "config.json"), JSON.stringify({ notify, sandbox: { mode: "off" } }));
}

/** The calls so far, as [agent, id, reason, text]. */
function callsNow(): string[][] {
  return readdirSync(calls).map((f) => readFileSync(join(calls, f), "utf8").split("|"));
}

const callsOf = (agent: string, reason: string) => callsNow().filter((c) => c[0] === agent && c[2] === reason);

/** Waits for the call of `agent` and `reason`: later than any other call, so it also orders what came before. */
const waitForCall = (agent: string, reason: string) => waitFor(`a ${reason} notice of ${agent}`, () => callsOf(agent, reason).length > 0);

const spawn = (name: string, command: string) => sb.json<Agent>(["spawn", "--name", name, "--command", command, "--json"]);

async function waitStatus(name: string, status: string, session?: number): Promise<Agent> {
  return waitFor(`${name} ${status}`, async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
    return a && a.status === status && (session === undefined || a.session === session) ? a : undefined;
  });
}

beforeEach(() => {
  sb = new Sandbox();
  calls = join(sb.runtime, "calls");
  mkdirSync(calls);
  sb.env.CALLS = calls;
  writeUserConfig({ command: RECORD });
});
afterEach(() => sb.close());

describe("notify.command", () => {
  test("one question gives exactly one call, naming the agent and the reason", async () => {
    const asker = await spawn("asker", ASK);
    await waitForCall("asker", "question");
    // a later notice of another agent: once it arrived, nothing more of the first one is on its way
    await spawn("marker", "troupe signal done --result ok");
    await waitForCall("marker", "done");
    expect(callsNow().filter((c) => c[0] === "asker")).toEqual([["asker", asker.id, "question", "which database?"]]);
  });

  test("a question and a message to the user each notify, with a failure: the reason says which", async () => {
    await spawn("talker", `troupe send --user "build is green"; troupe ask --user "deploy now?"`);
    await spawn("breaker", `troupe signal error --error "tests broke"`);
    await waitForCall("talker", "message");
    await waitForCall("talker", "question");
    await waitForCall("breaker", "failed");
    expect(callsOf("talker", "message").map((c) => c[3])).toEqual(["build is green"]);
    expect(callsOf("talker", "question").map((c) => c[3])).toEqual(["deploy now?"]);
    expect(callsOf("breaker", "failed")[0]![3]).toContain("tests broke");
  });

  test("two questions of one agent within the quiet period give one call", async () => {
    const asker = await spawn("asker", ASK);
    await waitStatus("asker", "waiting", asker.session);
    await sb.json(["resume", "asker", "--answer", "q1=postgres", "--json"]);
    await waitStatus("asker", "waiting", asker.session + 1);
    await spawn("marker", "troupe signal done");
    await waitForCall("marker", "done");
    expect(callsOf("asker", "question").length).toBe(1);
  });

  test("a failing command is logged, not retried, and an edit of the config applies without a restart", async () => {
    writeUserConfig({ command: "echo 'no such webhook' >&2; exit 3" });
    await spawn("first", ASK);
    const log = join(sb.dir, ".troupe", "daemon.log");
    await waitFor("the failure in the daemon's log", () => existsSync(log) && readFileSync(log, "utf8").includes("exited 3: no such webhook"));
    writeUserConfig({ command: RECORD });
    await spawn("second", ASK);
    await waitForCall("second", "question");
    expect(callsNow().map((c) => c[0])).toEqual(["second"]);
    expect(readFileSync(log, "utf8").match(/exited 3/g)?.length).toBe(1);
  });

  test("a daemon an agent's command started gives the notify command none of that agent's identity", async () => {
    // as the ACP runner's or `troupe signal`'s client does when no daemon answers: the first request starts one
    const agentVars = { TROUPE_AGENT_TOKEN: "tok-of-another-agent", TROUPE_AGENT_NAME: "another", TROUPE_AGENT_ID: "ag_another", TROUPE_SIGNAL_FILE: join(sb.runtime, "signal.json"), TROUPE_SESSION_INPUT: join(sb.runtime, "input"), TROUPE_SESSION_KEY: "0123456789abcdef" };
    await sb.run(["ls", "--json"], { env: agentVars });
    expect(await sb.daemonPid()).not.toBeNull();
    // (TROUPE_AGENT_ID is the command's own: the agent it is told about)
    writeUserConfig({ command: `${RECORD}; env | grep -E '^(${Object.keys(agentVars).filter((k) => k !== "TROUPE_AGENT_ID").join("|")})=' > "$CALLS.env.$TROUPE_AGENT"; true` });
    await spawn("marker", "troupe signal done");
    await waitForCall("marker", "done");
    await waitFor("the command's record of its environment", () => existsSync(`${calls}.env.marker`));
    expect(readFileSync(`${calls}.env.marker`, "utf8")).toBe("");
  });

  test("a daemon restart does not notify again what was notified", async () => {
    await spawn("asker", ASK);
    await waitForCall("asker", "question");
    await sb.killDaemon();
    await sb.json(["ls", "--json"]); // a new daemon
    await spawn("marker", "troupe signal done");
    await waitForCall("marker", "done");
    expect(callsOf("asker", "question").length).toBe(1);
  });
});
