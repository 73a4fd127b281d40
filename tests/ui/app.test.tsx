import { afterEach, describe, expect, test } from "bun:test";
import { FakeClient, makeAgent, makeConversation } from "./helpers/fake-client.ts";
import { KEY, renderApp, type Screen } from "./helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

describe("dashboard", () => {
  test("lists agents with status and shows the selected agent's output", async () => {
    const a = makeAgent({ name: "alpha", status: "running" });
    const b = makeAgent({ name: "beta", status: "done" });
    const client = new FakeClient([a, b]);
    client.write(a.id, "hello from alpha\n", { silent: true });
    screen = await renderApp(client);
    const f = await screen.waitFor("hello from alpha");
    expect(f).toContain("alpha");
    expect(f).toContain("beta");
    expect(f).toContain("running");
    expect(f).toContain("done");
  });
});
