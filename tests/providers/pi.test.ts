import { describe, expect, test } from "bun:test";
import { pi } from "../../providers/pi.ts";
import { baseInput, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("pi over its recorded runs", () => {
  test("the session header, the tool call with its result, the answer, the run's tokens", () => {
    expectRecordedLoop(pi);
    expect(ofKind(loadFixture(pi, "success").events, "result")).toEqual([{ kind: "result", isError: false, costUsd: 0, inputTokens: expect.any(Number), outputTokens: expect.any(Number) }]);
  });

  test("a failed model call ends its message with an error: its status gives the class (pi exits 0 all the same)", () => {
    const auth = loadFixture(pi, "auth-401");
    expect(auth.meta.exitCode).toBe(0);
    expect(ofKind(auth.events, "error")[0]).toMatchObject({ failure: "auth", message: "401 Incorrect API key provided: test." });
    expect(ofKind(auth.events, "result")[0]).toMatchObject({ isError: true });
    expect(ofKind(loadFixture(pi, "quota-429").events, "error")[0]).toMatchObject({ failure: "usage_limit" });
  });

  test("plan leaves it no shell: the recorded resume in plan mode was offered none", () => {
    expect(ofKind(loadFixture(pi, "resume").events, "text")[0]?.text).toContain("no shell tool among read, grep, find, ls");
  });
});

describe("pi commands", () => {
  test("print mode, JSON events, the prompt on stdin (pi takes no --), its tool list per permission", () => {
    const cmd = pi.buildSpawn({ ...baseInput, permissions: "skip" });
    expect(cmd.argv).toEqual(["pi", "-p", "--mode", "json"]);
    expect(cmd.stdin).toBe("fix the bug");
    expect(pi.buildSpawn({ ...baseInput, permissions: "edits" }).argv).toContain("read,edit,write,grep,find,ls");
    expect(pi.buildSpawn({ ...baseInput, permissions: "plan" }).argv).toContain("read,grep,find,ls");
    expect(pi.buildResume!({ ...baseInput, permissions: "skip", sessionId: "s-1" }).argv.slice(-2)).toEqual(["--session", "s-1"]);
  });
});
