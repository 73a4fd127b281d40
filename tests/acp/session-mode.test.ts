import { expect, test } from "bun:test";
import type * as acp from "@agentclientprotocol/sdk";
import { modeSwitch } from "../../src/acp/session-mode.ts";

/** A context that records the requests made through it. */
function recorder() {
  const sent: { method: string; params: unknown }[] = [];
  const ctx = { request: async (method: string, params: unknown) => (sent.push({ method, params }), {}) } as unknown as acp.ClientContext;
  return { ctx, sent };
}

test("the modes state (Gemini CLI, Qwen Code): set with session/set_mode", async () => {
  const m = modeSwitch({ modes: { currentModeId: "default", availableModes: [{ id: "default", name: "Default" }, { id: "yolo", name: "YOLO" }] } })!;
  expect(m.current).toBe("default");
  expect(m.available).toEqual(["default", "yolo"]);
  const { ctx, sent } = recorder();
  await m.set(ctx, "s1", "yolo");
  expect(sent).toEqual([{ method: "session/set_mode", params: { sessionId: "s1", modeId: "yolo" } }]);
});

test("a config option of category mode (opencode 1.18.33's answer to session/new): set with session/set_config_option", async () => {
  const m = modeSwitch({
    configOptions: [
      { id: "model", name: "Model", category: "model", type: "select", currentValue: "opencode/big-pickle", options: [{ value: "opencode/big-pickle", name: "Big Pickle" }] },
      { id: "mode", name: "Session Mode", category: "mode", type: "select", currentValue: "build", options: [{ value: "build", name: "build" }, { value: "plan", name: "plan" }] },
    ],
  })!;
  expect(m.current).toBe("build");
  expect(m.available).toEqual(["build", "plan"]);
  const { ctx, sent } = recorder();
  await m.set(ctx, "s2", "plan");
  expect(sent).toEqual([{ method: "session/set_config_option", params: { sessionId: "s2", configId: "mode", value: "plan" } }]);
});

test("grouped options are flattened; an agent that offers no mode has no switch", () => {
  const grouped = modeSwitch({ configOptions: [{ id: "m", name: "Mode", category: "mode", type: "select", currentValue: "a", options: [{ group: "g", name: "G", options: [{ value: "a", name: "A" }, { value: "b", name: "B" }] }] }] });
  expect(grouped?.available).toEqual(["a", "b"]);
  expect(modeSwitch({ configOptions: [{ id: "model", name: "Model", category: "model", type: "select", currentValue: "x", options: [] }] })).toBeNull();
  expect(modeSwitch({})).toBeNull();
  expect(modeSwitch(null)).toBeNull();
});
