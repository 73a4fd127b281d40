import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { completionPatch } from "../../../src/agents/lifecycle/completion.ts";
import { readSignalFile, signalText, writeSignalFile } from "../../../src/agents/files/signal.ts";
import type { Signal } from "../../../src/protocol/signal.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-signal-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("signal file", () => {
  test("round-trips every kind of signal", () => {
    const path = join(dir, "a", "signal.json");
    const signals: Signal[] = [
      { status: "done", result: "ok" },
      { status: "questions", questions: [{ id: "q1", question: "which db?" }] },
      { status: "error", error: "no network" },
    ];
    for (const s of signals) {
      writeSignalFile(path, dir, signalText(s));
      expect(readSignalFile(path)).toEqual({ kind: "ok", signal: s });
    }
  });

  test("missing, broken and wrong-shaped files are told apart", () => {
    expect(readSignalFile(join(dir, "none.json"))).toEqual({ kind: "missing" });
    writeFileSync(join(dir, "broken.json"), '{"status": "do');
    expect(readSignalFile(join(dir, "broken.json"))).toEqual({ kind: "malformed", reason: "not JSON" });
    writeFileSync(join(dir, "shape.json"), '{"status": "questions", "questions": []}');
    const r = readSignalFile(join(dir, "shape.json"));
    expect(r.kind).toBe("malformed");
  });
});

describe("completion", () => {
  test("the signal decides the status", () => {
    expect(completionPatch({ kind: "ok", signal: { status: "done", result: "r" } }, 0)).toMatchObject({ status: "done", result: "r", exitCode: 0 });
    expect(completionPatch({ kind: "ok", signal: { status: "questions", questions: [{ id: "q1", question: "?" }] } }, 0)).toMatchObject({
      status: "waiting",
      questions: [{ id: "q1", question: "?" }],
    });
    expect(completionPatch({ kind: "ok", signal: { status: "error", error: "e" } }, 1)).toMatchObject({ status: "failed", error: "e" });
    // a clean exit without a signal is still a failure: the agent did not say it finished
    expect(completionPatch({ kind: "missing" }, 0)).toMatchObject({ status: "failed", error: expect.stringContaining("exited with code 0 without a signal") });
    expect(completionPatch({ kind: "missing" }, null).error).toContain("exit status unknown");
    expect(completionPatch({ kind: "malformed", reason: "not JSON" }, 0)).toMatchObject({ status: "failed", error: "malformed signal file: not JSON" });
    // a file nobody sent through the daemon (another agent planted it) is named, never taken
    expect(completionPatch({ kind: "foreign", path: "/w/.troupe/output/signal.json", found: '"{\\"status\\":\\"done\\"}"' }, 0)).toMatchObject({
      status: "failed",
      error: `signal file refused: /w/.troupe/output/signal.json holds "{\\"status\\":\\"done\\"}", which troupe did not write for this session (an agent's signal counts only when sent with 'troupe signal')`,
    });
  });
});
