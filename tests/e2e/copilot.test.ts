/**
 * The real Copilot CLI CLI (from npm) under troupe, offline against a scripted OpenAI-compatible model
 * on 127.0.0.1 (tests/support/chat-cli-troupe.ts): one loop through spawn, a tool call and its
 * result in `logs`, a signal, and a resume of the same session with the answer.
 */
import { test } from "bun:test";
import { proveLoop, useChatCliTroupe } from "../support/chat-cli-troupe.ts";

const t = useChatCliTroupe("copilot");

test("Copilot CLI asks through troupe signal, is resumed with the answer in its session, and ends done", () => proveLoop(t, "copilot"), 600_000);
