/**
 * `troupe proxy` (the compiled binary) as the far end of a link, started directly (what ssh
 * would run): the link's requests and event streams reach the workspace's daemon; the proxy
 * exits when its input closes; a link killed mid-stream is resumed with `since`, nothing lost
 * or doubled. tests/integration/remote-sshd.test.ts runs the same through a real sshd.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn, type ChildProcess } from "node:child_process";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import { TroupeClient } from "../../src/client/client.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import type { HeartbeatOptions } from "../../src/client/link/heartbeat.ts";
import type { EventMessage } from "../../src/client/sse.ts";

let sb: Sandbox | undefined;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  await sb?.close();
  sb = undefined;
});

function proxy(): ChildProcess {
  const c = spawn(BIN, ["proxy", "--workspace", sb!.dir], { stdio: ["pipe", "pipe", "pipe"], env: sb!.env });
  children.push(c);
  return c;
}

function linkClient(heartbeat?: HeartbeatOptions): { client: TroupeClient; transport: LinkTransport; last: () => ChildProcess } {
  let last!: ChildProcess;
  const transport = new LinkTransport(() => (last = proxy()), { name: "box", address: `me@box:${sb!.dir}`, timeoutMs: 20_000, installHint: "", ...(heartbeat && { heartbeat }) });
  return { client: new TroupeClient({ transport }), transport, last: () => last };
}

test("the proxy greets with its API version and exits when its input closes (an ssh -T session gets no SIGHUP)", async () => {
  sb = new Sandbox();
  const c = proxy();
  const out: Buffer[] = [];
  c.stdout!.on("data", (b: Buffer) => out.push(b));
  await waitFor("the greeting", () => Buffer.concat(out).toString("latin1").startsWith("troupe-link 1\n"));
  const exited = new Promise<number | null>((resolve) => c.on("exit", (code) => resolve(code)));
  c.stdin!.end();
  const started = Date.now();
  expect(await exited).toBe(0);
  expect(Date.now() - started).toBeLessThan(3_000);
});

test("a link killed mid-stream (kill -9 of its far end): lifecycle events resume with since, output after its last chunk; every line once", async () => {
  sb = new Sandbox();
  const { client, transport, last } = linkClient();
  const script = "for i in $(seq 1 40); do echo line$i; sleep 0.05; done; troupe signal done --result ok";
  const seen: string[] = [];
  let lastChunk = 0;
  let since: number | null = null;
  let agentId: string | null = null;
  let killed = false;
  // as the dashboard's mirror does: a chunk once, by its id (the stream and the output pages may both carry it)
  const take = (chunk: { id: number; agentId: string; stream: string; data: string }) => {
    if (chunk.agentId !== agentId || chunk.stream !== "stdout" || chunk.id <= lastChunk) return;
    lastChunk = chunk.id;
    seen.push(chunk.data);
  };
  const read = async (events: AsyncGenerator<EventMessage>) => {
    for await (const m of events) {
      if (m.id !== null) since = m.id;
      const e = m.event;
      if (e.type === "agent:output") take(e.chunk);
      if (!killed && seen.join("").includes("line10\n")) {
        killed = true;
        last().kill("SIGKILL"); // the link dies as a killed ssh client's does
      }
      if ((e.type === "agent:updated" || e.type === "agent:created") && e.agent.id === agentId && e.agent.status === "done") return "done";
    }
    return "ended";
  };
  const first = await client.openEvents(null);
  const agent = await client.spawn({ provider: "generic", command: script, worktree: false, env: {} } as never);
  agentId = agent.id;
  await expect(read(first)).rejects.toThrow("the link to box closed");
  expect(killed).toBe(true);
  // the link stays down while the agent writes on, and ends: both must come back
  await Bun.sleep(3_000);
  const again = await client.openEvents(since);
  for (const c of await client.output(agent.id, { after: lastChunk, limit: 1000 })) take(c);
  expect(await read(again)).toBe("done");
  const lines = seen.join("").split("\n").filter((l) => l.startsWith("line"));
  expect(lines).toEqual(Array.from({ length: 40 }, (_, i) => `line${i + 1}`));
  transport.close();
}, 60_000);

test("the proxy answers the link's heartbeat: an idle event stream outlives the deadline many times; a stopped proxy fails it within the deadline", async () => {
  sb = new Sandbox();
  const { client, transport, last } = linkClient({ everyMs: 100, deadMs: 300 });
  const events = await client.openEvents(null);
  const types: string[] = [];
  const read = (async () => {
    for await (const m of events) types.push(m.event.type);
  })();
  read.catch(() => undefined);
  // nothing happens in the workspace for ten deadlines: only PING and PONG cross the link
  await Bun.sleep(3_000);
  await client.spawn({ provider: "generic", command: "sleep 600", name: "late", worktree: false, env: {} } as never);
  await waitFor("the agent's event on the idle stream", () => types.includes("agent:created"));
  // a frozen far end (SIGSTOP: nothing closes, nothing answers)
  const far = last();
  far.kill("SIGSTOP");
  const started = Date.now();
  try {
    await expect(read).rejects.toThrow(/^the link to box went silent: nothing from me@box:\S+ for 0.3 s$/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // the next request opens a new link, as a dashboard's reconnect does
    expect((await client.listAgents()).map((a) => a.name)).toContain("late");
    expect(last()).not.toBe(far);
  } finally {
    far.kill("SIGCONT");
    transport.close();
  }
}, 60_000);
