import { afterAll, expect, test } from "bun:test";
import type { Agent } from "../../src/protocol/entities.ts";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterAll(async () => {
  await sb?.close();
});

const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;

/** The NAME column of `troupe ls`, as printed (indentation kept), one entry per agent. */
async function names(env: Record<string, string>): Promise<string[]> {
  const r = await sb.run(["ls"], { env });
  expect(r.code).toBe(0);
  const [header, ...rows] = r.stdout.trimEnd().split("\n");
  const from = header!.indexOf("NAME");
  const to = header!.indexOf("PROVIDER");
  return rows.map((row) => row.slice(from, to).trimEnd());
}

test("an agent's `troupe spawn` records it as the parent; `troupe ls` shows the tree, and a removed parent's workers move up", async () => {
  sb = new Sandbox();
  const grandkid = `troupe spawn --no-worktree --name grandkid --command 'sleep 60' >/dev/null && sleep 60`;
  const lead = `troupe spawn --no-worktree --name kid --command ${shellQuote(grandkid)} >/dev/null && troupe signal done`;
  await sb.json(["spawn", "--no-worktree", "--name", "lead", "--command", lead, "--json"]);
  const byName = async () => new Map((await sb.json<Agent[]>(["ls", "--json"])).map((a) => [a.name, a]));
  const family = await waitFor("grandkid to start and lead to be done", async () => {
    const m = await byName();
    return m.get("grandkid") && m.get("lead")?.status === "done" ? m : undefined;
  });
  await sb.json(["spawn", "--no-worktree", "--name", "solo", "--command", "sleep 60", "--json"]);
  expect(family.get("lead")!.parentId).toBeNull();
  expect(family.get("kid")!.parentId).toBe(family.get("lead")!.id);
  expect(family.get("grandkid")!.parentId).toBe(family.get("kid")!.id);
  expect((await byName()).get("solo")!.parentId).toBeNull();

  const utf8 = { TERM: "xterm-256color" };
  expect(await names(utf8)).toEqual(["lead", "└─ kid", "   └─ grandkid", "solo"]);
  expect(await names({ TERM: "dumb" })).toEqual(["lead", "`- kid", "   `- grandkid", "solo"]);
  // --json is the agents as the API gives them: no tree order, no glyphs
  expect((await sb.json<Agent[]>(["ls", "--json"])).map((a) => a.name)).toEqual(["lead", "kid", "grandkid", "solo"]);

  // the store hands a removed agent's children to its parent: here none, so kid is top level now
  expect((await sb.run(["rm", "lead"])).code).toBe(0);
  expect(await names(utf8)).toEqual(["kid", "└─ grandkid", "solo"]);
  // and says so: an open dashboard sees kid move up without a new snapshot
  const ctl = new AbortController();
  const res = await fetch("http://troupe/v1/events?since=0&output=none", { unix: sb.socket, signal: ctl.signal });
  const reader = res.body!.getReader();
  let text = "";
  const moved = () => {
    const events = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1]!) as { type: string; agentId?: string; agent?: Agent });
    const removed = events.findIndex((e) => e.type === "agent:removed");
    return removed >= 0 && events.slice(removed).some((e) => e.type === "agent:updated" && e.agent?.name === "kid" && e.agent.parentId === null);
  };
  await waitFor("kid's move announced", async () => {
    const { value } = await reader.read();
    text += new TextDecoder().decode(value);
    return moved();
  });
  ctl.abort();
}, 60_000);
