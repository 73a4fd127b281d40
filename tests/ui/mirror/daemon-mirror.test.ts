import { describe, expect, jest, test } from "bun:test";
import { DaemonMirror } from "../../../src/ui/mirror/daemon-mirror.ts";
import { FakeClient, makeAgent, makeConversation } from "../helpers/fake-client.ts";
import { defaultParser, waitFor } from "../helpers/render.tsx";

function start(client: FakeClient, onAttention = () => {}) {
  const feed = new DaemonMirror(client, () => defaultParser, { onAttention, retryMaxMs: 20 });
  feed.start();
  return feed;
}

const live = (feed: DaemonMirror) => waitFor(() => feed.getView().connection.state === "live", () => "live");

describe("DaemonMirror", () => {
  test("snapshot, then events, published in batches", async () => {
    const a = makeAgent({ status: "running" });
    const client = new FakeClient([a]);
    const feed = start(client);
    await live(feed);
    expect(Object.keys(feed.getView().entities.agents)).toEqual([a.id]);
    let notified = 0;
    feed.subscribe(() => notified++);
    for (let i = 0; i < 50; i++) client.update(a.id, { lastActivityAt: i });
    await waitFor(() => feed.getView().entities.agents[a.id]!.lastActivityAt === 49, () => "last update applied");
    expect(notified).toBeLessThan(10);
    feed.stop();
  });

  test("when the daemon goes away it says so, keeps the state, and catches up after it returns", async () => {
    const a = makeAgent({ status: "running" });
    const client = new FakeClient([a]);
    const feed = start(client);
    await live(feed);
    const buf = feed.output.ensure(a.id, a.provider);
    await waitFor(() => buf.state === "ready", () => "output ready");
    client.kill();
    await waitFor(() => feed.getView().connection.state === "down", () => "down");
    expect(feed.getView().entities.agents[a.id]).toBeDefined();
    // Meanwhile the agent finished and wrote more: nothing of it was pushed to us.
    client.agents.set(a.id, { ...a, status: "done", updatedAt: a.updatedAt + 10 });
    client.write(a.id, "while you were away\n", { silent: true });
    client.revive();
    await live(feed);
    await waitFor(() => feed.getView().entities.agents[a.id]!.status === "done", () => "state refetched");
    await waitFor(() => buf.source(false).end === 1, () => "missed output fetched");
    // The same daemon: events are replayed from the last id seen.
    const sinces = client.callsOf("events").map((args) => args[0]);
    // opened, opened again with the agent whose output loaded (the output filter), then after the daemon came back
    expect(sinces.length).toBe(3);
    feed.stop();
  });

  test("rings once per new thing waiting for the person, never for what was already waiting", async () => {
    const w = makeAgent({ status: "waiting", questions: [{ id: "q", question: "?" }] });
    const r = makeAgent({ status: "running" });
    const client = new FakeClient([w, r]);
    let bells = 0;
    const feed = start(client, () => bells++);
    await live(feed);
    expect(bells).toBe(0);
    client.update(r.id, { status: "waiting", questions: [{ id: "q1", question: "which?" }] });
    await waitFor(() => bells === 1, () => "one bell");
    client.update(r.id, { lastActivityAt: 5 });
    client.addConversation(makeConversation({ fromId: w.id }));
    await waitFor(() => bells === 2, () => "second bell for the conversation");
    client.update(w.id, { lastActivityAt: 7 });
    await waitFor(() => feed.getView().entities.agents[w.id]!.lastActivityAt === 7, () => "update seen");
    expect(bells).toBe(2);
    feed.stop();
  });
  test("a quiet feed refetches nothing: no state request in an hour of fake time without events", async () => {
    jest.useFakeTimers();
    try {
      const a = makeAgent({ status: "running" });
      const client = new FakeClient([a]);
      const feed = new DaemonMirror(client, () => defaultParser, { retryMaxMs: 20 });
      feed.start();
      for (let i = 0; i < 100 && feed.getView().connection.state !== "live"; i++) await Promise.resolve();
      expect(feed.getView().connection.state).toBe("live");
      const before = client.callsOf("listAgents").length;
      expect(before).toBe(1);
      for (let s = 0; s < 3600; s += 5) {
        jest.advanceTimersByTime(5_000);
        await Promise.resolve();
      }
      expect(client.callsOf("listAgents").length).toBe(before);
      feed.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
