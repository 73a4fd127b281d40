/**
 * The real Cline CLI (from npm) under troupe, offline against a scripted OpenAI-compatible model
 * on 127.0.0.1 (tests/support/chat-cli-troupe.ts). Cline cannot resume a session headless
 * (providers/cline.ts): the loop is spawn, a tool call and its result in `logs`, the signal, and
 * a resume refused in one line.
 */
import { expect, test } from "bun:test";
import { shell, turnIndex } from "../../scripts/fake-chat-completions.ts";
import { useChatCliTroupe } from "../support/chat-cli-troupe.ts";

const t = useChatCliTroupe("cline", (req) => (turnIndex(req) === 0 ? shell(req, `troupe signal done --result "cline ran"`) : { text: "Done." }));

test("Cline runs its tool call under troupe, ends with troupe signal done, and cannot be resumed", async () => {
  const sb = await t.sandbox();
  await sb.json(["spawn", "--provider", "cline", "--name", "cli", "--prompt", "Signal that you are done.", "--json"]);
  const a = await t.ended(sb, "cli");
  expect(a, JSON.stringify(a)).toMatchObject({ status: "done", result: "cline ran" });
  expect(a.inputTokens).toBeGreaterThan(0);
  const logs = (await sb.run(["logs", "cli"])).stdout;
  expect(logs).toContain("troupe signal done");
  expect(logs).toContain("⎿");
  const r = await sb.run(["resume", "cli", "--message", "again"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr).toContain("cannot resume");
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
}, 600_000);
