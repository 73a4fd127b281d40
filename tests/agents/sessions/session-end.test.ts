import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { SessionEnd } from "../../../src/agents/sessions/session-end.ts";
import type { FailoverHook } from "../../../src/agents/lifecycle/end-patch.ts";
import type { Signal } from "../../../src/protocol/signal.ts";
import type { AgentPatch } from "../../../src/store/agents.ts";
import { Rows } from "../../support/rows.ts";
import { waitFor } from "../../support/sandbox.ts";

/**
 * A session's end before the end-of-run sequence: the lifecycle's decision (with accounts
 * failover) recorded once, then a run that is over goes to the sequence, a retry does not, and
 * an attached session's end is a detach. Real store, the signal recorded as `troupe signal` records
 * it (SignalAgent.signal); the output is taken as stored.
 */
let rows: Rows;
afterEach(() => rows.close());

function setup(failover: FailoverHook | null = null, patch: AgentPatch = { status: "running", session: 1 }) {
  rows = new Rows();
  const seen: string[] = [];
  rows.bus.subscribe((p) => seen.push(p.event.type === "agent:updated" ? `updated ${p.event.agent.status}` : p.event.type));
  const rec = rows.agent("otter", patch);
  const logs = join(rows.dir, "logs");
  rows.store.sessions.insert({ agentId: rec.id, session: 1, stdoutPath: join(logs, "1.out"), stderrPath: join(logs, "1.err"), exitPath: join(logs, "1.exit"), marker: "m" });
  const ws = { root: rows.dir, stateDir: join(rows.dir, ".troupe"), socket: join(rows.dir, "s"), socketExplicit: true };
  const end = new SessionEnd({
    ws,
    store: rows.store,
    bus: rows.bus,
    log: rows.log,
    binDir: rows.dir,
    ends: {
      ended: (r) => seen.push(`ended ${r.agent.status} ${r.session} ${r.exitCode}`),
      detached: (r) => seen.push(`detached ${r.agent.status} ${r.session}`),
      retrying: (r) => seen.push(`retrying ${r.session}`),
      stopped: (a) => seen.push(`stopped ${a.name}`),
      removed: (id) => seen.push(`removed ${id}`),
    },
    storeRest: () => Promise.resolve(),
    retryScheduled: () => seen.push("retry scheduled"),
    failover: () => failover,
  });
  const signal = (s: Signal) => void rows.store.sessions.recordSignal(rec.id, 1, JSON.stringify(s));
  return { end, seen, signal };
}

const settled = () => rows.store.sessions.get("ag_otter", 1)?.endedAt !== null;

test("a run that is over goes to the end-of-run sequence once, after its agent:updated", async () => {
  const { end, seen, signal } = setup();
  signal({ status: "done", result: "ok" });
  end.exited("ag_otter", 1, 0);
  await waitFor("the session ended", settled);
  end.exited("ag_otter", 1, 0);
  await new Promise((r) => setImmediate(r));
  expect(seen).toEqual(["updated done", "ended done 1 0"]);
});

test("a spent quota goes through accounts failover inside the decision: a retry on another account is no end", async () => {
  const asked: string[] = [];
  const { end, seen, signal } = setup((rec, failure) => {
    asked.push(`${rec.name} ${failure.class}`);
    return { kind: "retry", how: "resume", attempt: rec.attempt + 1, delayMs: 0 };
  });
  signal({ status: "error", error: "quota spent", class: "usage_limit" });
  end.exited("ag_otter", 1, 1);
  await waitFor("the session ended", settled);
  expect(asked).toEqual(["otter usage_limit"]);
  expect(seen).toEqual(["updated starting", "retrying 1", "retry scheduled"]);
  expect(rows.store.agents.get("ag_otter")).toMatchObject({ status: "starting", failure: { class: "usage_limit", attempt: 1 } });
});

test("without accounts a spent quota fails the run, and the sequence follows", async () => {
  const { end, seen, signal } = setup(null);
  signal({ status: "error", error: "quota spent", class: "usage_limit" });
  end.exited("ag_otter", 1, 1);
  await waitFor("the session ended", settled);
  expect(seen).toEqual(["updated failed", "ended failed 1 1"]);
});

test("an attached session's end is a detach, back to the status before it, announced before its agent:updated", async () => {
  const { end, seen } = setup(null, { status: "attached", attachedFrom: "done", session: 1 });
  end.exited("ag_otter", 1, 0);
  await waitFor("the session ended", settled);
  expect(seen).toEqual(["detached done 1", "updated done"]);
});
