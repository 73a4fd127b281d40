import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventBus } from "../../src/events/bus.ts";
import { Logger } from "../../src/events/log.ts";
import { Notifier, type NotifierDeps } from "../../src/notify/notifier.ts";
import { noticeOf } from "../../src/notify/reasons.ts";
import { runNotifyCommand, type NotifyRun } from "../../src/notify/run-command.ts";
import type { NotifyConfig } from "../../src/protocol/user-config.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { createStore } from "../../src/store/index.ts";
import { makeAgent } from "../ui/helpers/fake-client.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-notify-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const logPath = join(dir, "daemon.log");
const log = new Logger(logPath);
const store = createStore(join(dir, "troupe.db"), log);
const bus = new EventBus(store.events, log);

let clock = 1_000_000;
let sentDir = 0;

/** A notifier on the bus whose runs are recorded (the command itself is tested apart, below). */
function notifier(cfg: NotifyConfig, sentPath = join(dir, `sent-${++sentDir}.json`)) {
  const runs: NotifyRun[] = [];
  const deps: NotifierDeps = {
    bus,
    log,
    root: dir,
    sentPath,
    nameOf: () => "planner",
    config: () => cfg,
    now: () => clock,
    run: async (r) => (runs.push(r), { ok: true }),
  };
  const n = new Notifier(deps);
  n.start();
  return { runs, n, sentPath };
}

const waiting = (session: number, question = "which?") =>
  bus.publish({ type: "agent:updated", agent: makeAgent({ id: "a1", name: "ada", status: "waiting", session, questions: [{ id: "q1", question }] }) });

describe("Notifier", () => {
  test("an agent back from the person's attached session is not news: its status then calls nothing", () => {
    const { runs, n } = notifier({ command: "true", quietSeconds: 0 });
    const done = (session: number) => makeAgent({ id: "a9", name: "ada", status: "done", session, result: "ok" });
    bus.publish({ type: "agent:updated", agent: done(1) });
    bus.publish({ type: "agent:updated", agent: makeAgent({ id: "a9", name: "ada", status: "attached", session: 2 }) });
    bus.publish({ type: "agent:detached", agent: done(2), session: 2 });
    bus.publish({ type: "agent:updated", agent: done(2) });
    // a later run's end is news again
    bus.publish({ type: "agent:updated", agent: done(3) });
    n.shutdown();
    expect(runs.map((r) => [r.env.TROUPE_REASON, r.env.TROUPE_AGENT_ID])).toEqual([
      ["done", "a9"],
      ["done", "a9"],
    ]);
  });

  test("one call per agent and reason within the quiet period; another reason or a later time calls again", () => {
    const { runs, n } = notifier({ command: "true", quietSeconds: 60 });
    waiting(1);
    waiting(1); // the same occurrence published again
    waiting(2); // a second question within the quiet period
    bus.publish({ type: "agent:updated", agent: makeAgent({ id: "a1", name: "ada", status: "failed", session: 2, error: "boom" }) });
    clock += 61_000;
    waiting(3);
    n.shutdown();
    expect(runs.map((r) => [r.env.TROUPE_AGENT, r.env.TROUPE_AGENT_ID, r.env.TROUPE_REASON, r.env.TROUPE_TEXT])).toEqual([
      ["ada", "a1", "question", "which?"],
      ["ada", "a1", "failed", "boom"],
      ["ada", "a1", "question", "which?"],
    ]);
  });

  test("a new notifier on the same record (a daemon restart) does not notify what the first one did", () => {
    const first = notifier({ command: "true", quietSeconds: 0 });
    waiting(7);
    first.n.shutdown();
    const second = notifier({ command: "true", quietSeconds: 0 }, first.sentPath);
    waiting(7);
    waiting(8);
    second.n.shutdown();
    expect(first.runs.length).toBe(1);
    expect(second.runs.map((r) => r.env.TROUPE_REASON)).toEqual(["question"]);
    expect(JSON.parse(readFileSync(first.sentPath, "utf8")).keys).toEqual(["question:a1:7", "question:a1:8"]);
  });

  test("no command: nothing runs and nothing is recorded, so configuring one later still notifies", () => {
    const cfg: NotifyConfig = {};
    const { runs, n } = notifier(cfg);
    waiting(20);
    cfg.command = "true";
    waiting(20);
    n.shutdown();
    expect(runs.length).toBe(1);
  });
});

describe("noticeOf", () => {
  const request = (over: Partial<PermissionRequest>): PermissionRequest => ({
    id: "perm_1", agentId: "a1", agentName: "ada", kind: "tool", toolName: "Bash", input: { command: "rm -rf build\n\u001b]0;pwned\u0007" },
    status: "pending", decidedBy: null, rule: null, reason: null, updatedInput: null, createdAt: 1, decidedAt: null, ...over,
  });

  test("a pending permission request is a `permission` notice naming the tool and its command, controls removed", () => {
    expect(noticeOf({ type: "permission:created", request: request({}) }, () => null)).toEqual({
      agentId: "a1", agentName: "ada", reason: "permission", text: "Bash: rm -rf build ]0;pwned", key: "permission:perm_1",
    });
    expect(noticeOf({ type: "permission:updated", request: request({ status: "allowed" }) }, () => null)).toBeNull();
  });

  test("a phase an agent proposed asks for approval under the agent's name; one the person wrote does not", () => {
    const phase = { id: "ph1", initiativeId: "i1", slug: "db", title: "Database", content: "", status: "proposed" as const, dependsOn: [], proposedBy: "a9", reason: null, pin: null, version: 1, createdAt: 1, updatedAt: 1 };
    expect(noticeOf({ type: "phase:created", phase }, (id) => (id === "a9" ? "planner" : null))).toMatchObject({ agentId: "a9", agentName: "planner", reason: "approval", text: "phase Database" });
    expect(noticeOf({ type: "phase:created", phase: { ...phase, proposedBy: null } }, () => null)).toBeNull();
  });
});

describe("runNotifyCommand", () => {
  test("a hanging command is killed at its timeout, with what it started", async () => {
    const started = Date.now();
    const r = await runNotifyCommand({ command: "sleep 30 & sleep 30", env: { PATH: process.env.PATH ?? "" }, cwd: dir, timeoutMs: 300 });
    expect(r).toEqual({ ok: false, why: "killed after 0.3 s" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test("a failing command says its exit code and its last line of stderr", async () => {
    const r = await runNotifyCommand({ command: "echo one >&2; echo 'no route' >&2; exit 7", env: {}, cwd: dir, timeoutMs: 5000 });
    expect(r).toEqual({ ok: false, why: "exited 7: no route" });
  });
});
