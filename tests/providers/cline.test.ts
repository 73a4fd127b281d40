import { describe, expect, test } from "bun:test";
import { cline } from "../../providers/cline.ts";
import { TroupeError } from "../../src/errors.ts";
import { baseInput, loadFixture, ofKind } from "./fixture-helpers.ts";
import { expectRecordedLoop } from "./recorded-loop.ts";

describe("Cline over its recorded runs", () => {
  test("the tool call with its result, the answer, the run's result with tokens; no session id (it cannot resume headless)", () => {
    expectRecordedLoop(cline);
    const events = loadFixture(cline, "success").events;
    expect(ofKind(events, "session")).toEqual([]);
    expect(ofKind(events, "result")[0]?.inputTokens).toBeGreaterThan(0);
  });

  test("an API refusal comes with Cline's own class for it", () => {
    expect(ofKind(loadFixture(cline, "auth-401").events, "error")[0]).toMatchObject({ failure: "auth", message: "Incorrect API key provided: test." });
  });

  test("its AI SDK warnings on stderr stay raw", () => {
    for (const line of loadFixture(cline, "success").stderr) expect(cline.parseLine(line, "stderr")).toEqual([{ kind: "raw", line }]);
  });
});

describe("Cline commands", () => {
  test("--json, tools approved (skip) or its plan mode, the prompt after --", () => {
    expect(cline.buildSpawn({ ...baseInput, permissions: "skip", prompt: "-x" }).argv).toEqual(["cline", "--json", "--auto-approve", "true", "--", "-x"]);
    expect(cline.buildSpawn({ ...baseInput, permissions: "plan" }).argv).toEqual(["cline", "--json", "--plan", "--", "fix the bug"]);
    expect(cline.buildResume).toBeNull();
  });

  test("edits is refused: Cline approves tools all or none", () => {
    expect(() => cline.buildSpawn({ ...baseInput, permissions: "edits" })).toThrow(TroupeError);
    expect(() => cline.buildSpawn({ ...baseInput, permissions: "edits" })).toThrow("--permissions edits is not available for Cline");
  });
});
