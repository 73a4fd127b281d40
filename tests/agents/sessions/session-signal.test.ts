import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { sessionSignal } from "../../../src/agents/sessions/session-signal.ts";
import type { AgentRecord } from "../../../src/store/agents.ts";
import type { SessionRecord } from "../../../src/store/sessions.ts";

// How a run's end reads its signal: the daemon's record, never a file nobody sent through it.

const dir = mkdtempSync(join(tmpdir(), "troupe-session-signal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
function fresh(file: string | null, over: Partial<SessionRecord> = {}): { rec: AgentRecord; sess: SessionRecord } {
  const base = join(dir, `a${++n}`, ".troupe");
  mkdirSync(join(base, "output"), { recursive: true });
  mkdirSync(join(dir, `a${n}`, "logs"), { recursive: true });
  const signalFile = join(base, "output", "signal.json");
  if (file !== null) writeFileSync(signalFile, file);
  const rec = { signalFile } as AgentRecord;
  const sess = { exitPath: join(dir, `a${n}`, "logs", "1.exit"), signalJson: null, signalFromFile: false, ...over } as SessionRecord;
  return { rec, sess };
}

test("the recorded signal is the run's, whatever the file says now (or if it is gone)", () => {
  const { rec, sess } = fresh('{"status":"error","error":"overwritten"}', { signalJson: '{"status":"done","result":"mine"}' });
  expect(sessionSignal(rec, sess)).toEqual({ kind: "ok", signal: { status: "done", result: "mine" } });
  const gone = fresh(null, { signalJson: '{"status":"done"}' });
  expect(sessionSignal(gone.rec, gone.sess)).toEqual({ kind: "ok", signal: { status: "done" } });
});

test("a file with no record is foreign, named with what it holds; none is missing", () => {
  const { rec, sess } = fresh('{"status":"done","result":"planted"}\n');
  expect(sessionSignal(rec, sess)).toEqual({ kind: "foreign", path: rec.signalFile, found: '"{\\"status\\":\\"done\\",\\"result\\":\\"planted\\"}"' });
  const none = fresh(null);
  expect(sessionSignal(none.rec, none.sess)).toEqual({ kind: "missing" });
});

test("a failed worktree.setup (the wrapper's <n>.setup) is the run's error", () => {
  const { rec, sess } = fresh('{"status":"done","result":"planted"}');
  writeFileSync(sess.exitPath.replace(/\.exit$/, ".setup"), "7");
  expect(sessionSignal(rec, sess)).toEqual({ kind: "ok", signal: { status: "error", error: "setup failed: worktree.setup exited 7 (its output is in the agent log)" } });
});

test("a run open at the upgrade to recorded signals reads its file as before", () => {
  const { rec, sess } = fresh('{"status":"done","result":"from the file"}', { signalFromFile: true });
  expect(sessionSignal(rec, sess)).toEqual({ kind: "ok", signal: { status: "done", result: "from the file" } });
});
