/**
 * The dashboard's view of several daemons (src/ui/sources/): two real daemons of two workspaces,
 * followed as the dashboard follows them (followSources over their sockets). Their numbered ids
 * meet (each has a msg_1): tagged with their source they do not, and an action on one reaches
 * its own daemon only.
 */
import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { TroupeClient } from "../../src/client/client.ts";
import { localSource } from "../../src/client/sources.ts";
import { resolveWorkspace } from "../../src/workspace.ts";
import { followSources, type FollowedSources } from "../../src/ui/sources/follow-sources.ts";
import { parserFor } from "../../src/output/render.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { AttentionItem } from "../../src/ui/mirror/attention.ts";

let a: Sandbox | undefined;
let b: Sandbox | undefined;
let f: FollowedSources | undefined;
afterEach(async () => {
  f?.mirror.stop();
  await a?.close();
  await b?.close();
  a = b = f = undefined;
});

const sourceOf = (sb: Sandbox) => localSource(resolveWorkspace({ workspace: sb.dir }), new TroupeClient({ socket: sb.socket }));

test("two daemons as one view: each msg_1 tagged with its source, read in its own daemon only; a spawn and output go to the right one", async () => {
  a = new Sandbox();
  b = new Sandbox();
  for (const [sb, name] of [[a, "alpha"], [b, "beta"]] as const) {
    await sb.json(["spawn", "--no-worktree", "--name", name, "--command", `troupe send --user "hello from ${name}"; echo ${name} out; troupe signal done`, "--json"]);
  }
  for (const sb of [a, b]) await waitFor("its message", async () => (await new TroupeClient({ socket: sb.socket }).messages({ to: "user", unread: true })).length > 0);
  const alerts: AttentionItem[] = [];
  f = followSources([sourceOf(a), sourceOf(b)], parserFor, { onAttention: (items) => alerts.push(...items) });
  const [la, lb] = f.mirror.getView().sources?.list.map((s) => s.label) ?? [];
  f.mirror.start();
  const view = await waitFor("both sources live", async () => {
    const v = f!.mirror.getView();
    return v.sources!.list.every((s) => s.connection.state === "live") && Object.keys(v.entities.messages).length === 2 && v;
  });
  const ids = Object.keys(view.entities.messages).sort();
  expect(ids).toEqual([`msg_1@${la}`, `msg_1@${lb}`].sort());
  expect(view.entities.messages[`msg_1@${lb}`]!.text).toBe("hello from beta");
  // where each agent is
  const agents = Object.values(view.entities.agents);
  const beta = agents.find((x) => x.name === "beta")!;
  expect(view.sources!.indexOf(beta.id)).toBe(1);
  expect(f.mirror.locate(beta.id)).toBe(lb!);

  // read b's message through the routing client: b's is read, a's still unread
  const read = await f.client.markRead(`msg_1@${lb}`);
  expect(read.id).toBe(`msg_1@${lb}`);
  expect(read.status).toBe("read");
  expect((await new TroupeClient({ socket: b.socket }).messages({ to: "user", unread: true })).length).toBe(0);
  expect((await new TroupeClient({ socket: a.socket }).messages({ to: "user", unread: true })).map((m) => m.text)).toEqual(["hello from alpha"]);

  // an agent's own calls find its daemon by its id: b's output, b's agent
  await waitFor("beta done", async () => (await f!.client.agent(beta.id)).status === "done");
  const out = await f.client.output(beta.id, {});
  expect(out.map((c) => c.data).join("")).toContain("beta out");

  // a spawn in b (the new-agent dialog's source) lands there, and shows under b at once
  const made = await f.client.at(lb).spawn({ name: "late", command: "sleep 30", worktree: false });
  f.mirror.upsertAgent(made, lb);
  expect(f.mirror.getView().sources!.indexOf(made.id)).toBe(1);
  expect((await new TroupeClient({ socket: b.socket }).listAgents()).some((x: Agent) => x.id === made.id)).toBe(true);
  expect((await new TroupeClient({ socket: a.socket }).listAgents()).some((x: Agent) => x.id === made.id)).toBe(false);
  await f.client.stop(made.id);
  expect((await new TroupeClient({ socket: b.socket }).agent(made.id)).status).toBe("stopped");

  // an agent of the second source that asks now rings here (the bell, a desktop notification)
  expect(alerts).toEqual([]);
  await b.json(["spawn", "--no-worktree", "--name", "asker", "--command", "troupe ask 'ship it?' --user", "--json"]);
  const rang = await waitFor("the alert", () => alerts.find((x) => x.name === "asker"));
  expect(rang.text).toBe("ship it?");
}, 60_000);
