import { afterEach, expect, test } from "bun:test";
import { FakeClient, makeAgent } from "../helpers/fake-client.ts";
import { renderApp, waitFor, type Screen } from "../helpers/render.tsx";

let screen: Screen | null = null;
afterEach(() => {
  screen?.unmount();
  screen = null;
});

test("t takes a finished agent over and says so when it is back", async () => {
  const a = makeAgent({ name: "finisher", status: "done", provider: "claude" });
  screen = await renderApp(new FakeClient([a]));
  await screen.press("t");
  await waitFor(() => screen!.attaches.length === 1, () => "attach called");
  expect(screen.attaches).toEqual([a.id]);
  await screen.waitFor("back from finisher: done");
});

test("t on a running agent asks to stop it first; no keeps it running, yes stops it, then takes it over", async () => {
  const a = makeAgent({ name: "worker", status: "running", provider: "claude" });
  const client = new FakeClient([a]);
  screen = await renderApp(client);
  await screen.press("t");
  await screen.waitFor("Take over worker?");
  await screen.press("n");
  await screen.waitForNot("Take over worker?");
  expect(client.callsOf("stop")).toHaveLength(0);
  expect(screen.attaches).toHaveLength(0);
  await screen.press("t", "y");
  await waitFor(() => screen!.attaches.length === 1, () => `attach called; screen:\n${screen!.frame()}`);
  expect(client.callsOf("stop")).toHaveLength(1);
});

test("t says why it cannot: a provider without an interactive mode, an agent attached already", async () => {
  const aider = makeAgent({ name: "chatty", status: "done", provider: "aider" });
  screen = await renderApp(new FakeClient([aider]));
  await screen.press("t");
  await screen.waitFor("the aider provider has no interactive mode");
  screen.unmount();
  screen = await renderApp(new FakeClient([makeAgent({ name: "held", status: "attached", provider: "claude" })]));
  await screen.press("t");
  await screen.waitFor("held is attached already");
  expect(screen.attaches).toHaveLength(0);
});
