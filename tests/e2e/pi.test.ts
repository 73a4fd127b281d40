/**
 * The real pi CLI (from npm) under troupe, offline against a scripted OpenAI-compatible model
 * on 127.0.0.1 (tests/support/chat-cli-troupe.ts): one loop through spawn, a tool call and its
 * result in `logs`, a signal, and a resume of the same session with the answer; what the runs
 * cost, from the model's prices in pi's models.json.
 */
import { expect, test } from "bun:test";
import { agentNamed } from "../support/agent-queries.ts";
import { proveLoop, useChatCliTroupe } from "../support/chat-cli-troupe.ts";

const t = useChatCliTroupe("pi");

test("pi asks through troupe signal, is resumed with the answer in its session, and ends done, what it cost counted", async () => {
  const sb = await proveLoop(t, "pi");
  const a = await agentNamed(sb, "styler");
  expect(a.costUsd).toBeGreaterThan(0);
}, 600_000);
