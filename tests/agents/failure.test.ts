import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { diagnose, describeFailure } from "../../src/agents/failure.ts";
import { getProvider } from "../../providers/index.ts";
import type { OutputChunk } from "../../src/protocol/output.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures");

function chunks(provider: string, name: string): OutputChunk[] {
  const read = (f: string) => {
    try {
      return readFileSync(join(FIXTURES, provider, f), "utf8");
    } catch {
      return "";
    }
  };
  return [
    { id: 1, agentId: "a", session: 1, stream: "stdout", data: read(`${name}.stdout.jsonl`), createdAt: 0 },
    { id: 2, agentId: "a", session: 1, stream: "stderr", data: read(`${name}.stderr.txt`), createdAt: 0 },
  ];
}

describe("diagnosing a failed run from its recorded output", () => {
  const claude = getProvider("claude")!;
  test.each([
    ["auth-401", "auth"],
    ["not-logged-in", "auth"],
    ["usage-limit", "usage_limit"],
    ["usage-limit-weekly", "usage_limit"],
    ["credit-low", "usage_limit"],
    ["no-server", "network"],
    ["overloaded-529", "network"],
    ["root-no-sandbox", "crash"],
    ["resume-missing", "crash"],
  ])("claude %s is %s", (fixture, failure) => {
    const d = diagnose(claude, chunks("claude", fixture));
    expect(d?.failure).toBe(failure as never);
    expect(describeFailure(d!)).toContain(`(${failure}): `);
  });

  test("a successful run shows no failure", () => {
    expect(diagnose(claude, chunks("claude", "success"))).toBeNull();
  });

  test("codex and gemini errors are classified too", () => {
    expect(diagnose(getProvider("codex")!, chunks("codex", "auth-401"))?.failure).toBe("auth");
    expect(diagnose(getProvider("gemini")!, chunks("gemini", "quota-429"))?.failure).toBe("usage_limit");
  });
});
