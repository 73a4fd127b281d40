import { describe, expect, test } from "bun:test";
import { generic } from "../../providers/generic.ts";
import { TroupeError } from "../../src/errors.ts";
import { baseInput } from "./fixture-helpers.ts";

describe("generic provider", () => {
  test("runs the command through sh -c, the prompt in $TROUPE_PROMPT", () => {
    expect(generic.buildSpawn({ ...baseInput, permissions: "skip", command: "make test | tee out" })).toEqual({
      argv: ["sh", "-c", "make test | tee out"],
      env: { TROUPE_PROMPT: "fix the bug" },
    });
    expect(generic.buildSpawn({ ...baseInput, prompt: "", permissions: "skip", command: "true" })).toEqual({ argv: ["sh", "-c", "true"] });
  });

  test("without a command it is a clear error", () => {
    expect(() => generic.buildSpawn({ ...baseInput, permissions: "skip" })).toThrow(TroupeError);
    expect(() => generic.buildSpawn({ ...baseInput, permissions: "skip", command: "  " })).toThrow(/--command/);
  });

  test("a prompt $TROUPE_PROMPT cannot hold is refused before anything runs", () => {
    const build = () => generic.buildSpawn({ ...baseInput, permissions: "skip", command: "true", prompt: "p".repeat(200 * 1024) });
    expect(build).toThrow(TroupeError);
    expect(build).toThrow(/too long for the generic provider.*64 KiB/);
  });

  test("stdout lines are text, stderr lines raw, even JSON", () => {
    expect(generic.parseLine('{"type":"result"}', "stdout")).toEqual([{ kind: "text", text: '{"type":"result"}' }]);
    expect(generic.parseLine("", "stdout")).toEqual([{ kind: "text", text: "" }]);
    expect(generic.parseLine("warning: x", "stderr")).toEqual([{ kind: "raw", line: "warning: x" }]);
  });

  test("a real shell run parses line by line", async () => {
    const cmd = generic.buildSpawn({ ...baseInput, permissions: "skip", command: 'echo "one"; echo two >&2; echo "$TROUPE_PROMPT"' });
    const proc = Bun.spawn(cmd.argv, { env: { PATH: process.env.PATH ?? "", ...cmd.env }, stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
    expect(await proc.exited).toBe(0);
    const events = [
      ...out.trimEnd().split("\n").flatMap((l) => generic.parseLine(l, "stdout")),
      ...err.trimEnd().split("\n").flatMap((l) => generic.parseLine(l, "stderr")),
    ];
    expect(events).toEqual([
      { kind: "text", text: "one" },
      { kind: "text", text: "fix the bug" },
      { kind: "raw", line: "two" },
    ]);
  });

  test("no binary, no account; a resume runs the command again with the resume prompt and needs no session id", () => {
    expect(generic.binary).toBeNull();
    expect(generic.accountEnv).toBeNull();
    expect(generic.resumesWithoutSession).toBe(true);
    const cmd = generic.buildResume!({ command: "./agent.sh", prompt: "Q: port?\nA: 80", sessionId: "", cwd: "/w", permissions: "skip", env: {} });
    expect(cmd).toEqual({ argv: ["sh", "-c", "./agent.sh"], env: { TROUPE_PROMPT: "Q: port?\nA: 80" } });
  });
});
