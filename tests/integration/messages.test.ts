import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { TroupeClient } from "../../src/client/client.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Message } from "../../src/protocol/message.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/**
 * A scripted agent: each run waits for `go` (when asked to), appends the ids of the messages its
 * prompt carries to `<name>.log` (in the exchange folder) as `prompt msg_N`, then, in every run after the first (and in
 * the first when `<name>.read` exists), those its inbox returns as `inbox msg_N`, and ends done.
 */
const RECORDER = (name: string, waitForGo: boolean, dir = sb.exchange) =>
  [
    waitForGo ? `while [ ! -f go ]; do sleep 0.05; done` : ":",
    `n=$(cat ${dir}/${name}.runs 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${dir}/${name}.runs`,
    `printf '%s\\n' "$TROUPE_PROMPT" | sed -n 's/^\\[\\(msg_[0-9]*\\)\\] from .*/prompt \\1/p' >> ${dir}/${name}.log`,
    `if [ -f ${name}.read ] || [ $n -gt 1 ]; then troupe inbox --json | grep -o '"id":"msg_[0-9]*"' | sed 's/"id":"\\(.*\\)"/inbox \\1/' >> ${dir}/${name}.log; fi`,
    `troupe signal done --result "run done"`,
  ].join("; ");

const log = (name: string) => (existsSync(join(sb.exchange, `${name}.log`)) ? readFileSync(join(sb.exchange, `${name}.log`), "utf8").split("\n").filter(Boolean) : []);
const agent = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
const shellQuote = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
const client = () => new TroupeClient({ socket: sb.socket });

async function doneAt(name: string, session: number): Promise<Agent> {
  return waitFor(`${name} done at session ${session}`, async () => {
    const a = await agent(name);
    if (a && a.session > session) throw new Error(`${name} went past session ${session} (at ${a.session})`);
    return a?.status === "done" && a.session === session ? a : undefined;
  });
}

async function spawn(name: string, waitForGo: boolean, extra: string[] = []): Promise<Agent> {
  return sb.json<Agent>(["spawn", "--no-worktree", "--name", name, "--command", RECORDER(name, waitForGo), ...extra, "--json"]);
}

/**
 * Everything the daemon has decided about earlier events is settled once a later message woke
 * another agent: events are handled in order, and a wake is looked at once per burst.
 */
async function settle(): Promise<void> {
  const probe = `probe${Math.floor(Math.random() * 1e6)}`;
  await spawn(probe, false);
  await doneAt(probe, 1);
  await sb.run(["send", probe, "ping"]);
  await doneAt(probe, 2);
}

describe("messages to an agent", () => {
  test("a message to a running agent is delivered once, in its next run's prompt, after it ends its run", async () => {
    sb = new Sandbox();
    await spawn("ann", true);
    const sent = await sb.json<Message[]>(["send", "ann", "please also update the docs", "--json"]);
    expect(sent).toMatchObject([{ toName: "ann", fromId: "user", status: "queued" }]);
    await Bun.write(join(sb.dir, "go"), "");
    await doneAt("ann", 2);
    await settle();
    expect(log("ann")).toEqual([`prompt ${sent[0]!.id}`]);
    expect((await agent("ann"))!.session).toBe(2);
    const logs = await sb.run(["logs", "ann", "--session", "2"]);
    expect(logs.code).toBe(0);
  }, 30_000);

  test("a message the agent reads through its inbox while running is never delivered again", async () => {
    sb = new Sandbox();
    await Bun.write(join(sb.dir, "bo.read"), "");
    await spawn("bo", true);
    const [m] = await sb.json<Message[]>(["send", "bo", "read me", "--json"]);
    await Bun.write(join(sb.dir, "go"), "");
    await doneAt("bo", 1);
    await settle();
    expect(log("bo")).toEqual([`inbox ${m!.id}`]);
    expect((await agent("bo"))!.session).toBe(1);
  }, 30_000);

  test("1000 messages to a busy agent arrive in order, each once: as many as fit in its next run's prompt, the rest through its inbox", async () => {
    sb = new Sandbox();
    await spawn("cy", true);
    const c = client();
    const ids: string[] = [];
    for (let i = 0; i < 1000; i++) ids.push((await c.send({ to: "cy", text: `m${String(i).padStart(4, "0")}` }))[0]!.id);
    await Bun.write(join(sb.dir, "go"), "");
    await waitFor(
      "every message delivered",
      async () => {
        const a = await agent("cy");
        return a?.status === "done" && log("cy").length === 1000 ? a : undefined;
      },
      60_000,
    );
    await settle();
    expect(log("cy").map((l) => l.split(" ")[1])).toEqual(ids);
    // a prompt carries at most 32 KiB of messages; the second run read the rest from its inbox
    const from = log("cy").map((l) => l.split(" ")[0]);
    expect(from.indexOf("inbox")).toBeGreaterThan(100);
    expect(from.slice(from.indexOf("inbox")).every((f) => f === "inbox")).toBe(true);
    expect((await agent("cy"))!.session).toBe(2);
  }, 90_000);

  test("a done agent is resumed by the person's message; an unrelated agent's message, and `all`, only queue", async () => {
    sb = new Sandbox();
    await spawn("dee", false);
    await spawn("eve", false);
    await doneAt("dee", 1);
    await doneAt("eve", 1);
    // an agent the person started is nobody's descendant but its own: its message only queues
    await sb.json(["spawn", "--no-worktree", "--name", "fay", "--command", `troupe send dee 'from fay' && troupe signal done`, "--json"]);
    await doneAt("fay", 1);
    const all = await sb.json<Message[]>(["send", "--all", "everyone", "--json"]);
    expect(all.map((m) => m.toName).sort()).toEqual(["dee", "eve", "fay"]);
    await settle();
    expect([(await agent("dee"))!.session, (await agent("eve"))!.session, (await agent("fay"))!.session]).toEqual([1, 1, 1]);
    expect(log("dee")).toEqual([]);

    const [m] = await sb.json<Message[]>(["send", "dee", "wake up", "--json"]);
    await doneAt("dee", 2);
    // that run carries everything queued for dee, oldest first: fay's (the first message here), `all`'s, the person's
    expect(log("dee")).toEqual(["prompt msg_1", `prompt ${all.find((x) => x.toName === "dee")!.id}`, `prompt ${m!.id}`]);
  }, 30_000);

  test("an agent's message to the agent it started wakes it; --supervisor reaches the parent", async () => {
    sb = new Sandbox();
    const kid = RECORDER("kid", false).replace("troupe signal done", "troupe send --supervisor 'kid reporting'; troupe signal done");
    const pa = [
      `troupe spawn --no-worktree --name kid --command ${shellQuote(kid)} >/dev/null`,
      "while [ ! -f kid.done ]; do sleep 0.05; done",
      // read before waking kid again: its second run reports too, and must not race this read
      "troupe inbox --json > pa.inbox",
      "troupe send kid 'more work' >/dev/null",
      "troupe signal done",
    ].join("; ");
    await sb.json(["spawn", "--no-worktree", "--name", "pa", "--command", pa, "--json"]);
    await doneAt("kid", 1);
    await Bun.write(join(sb.dir, "kid.done"), "");
    await doneAt("pa", 1);
    await doneAt("kid", 2);
    expect(log("kid")).toEqual(["prompt msg_2"]);
    const paInbox = JSON.parse(readFileSync(join(sb.dir, "pa.inbox"), "utf8")) as Message[];
    expect(paInbox).toMatchObject([{ id: "msg_1", fromName: "kid", toName: "pa", text: "kid reporting" }]);
    // kid's second run reported too; pa is done and kid is not its ancestor: that one waits, queued
    expect(await client().inbox({})).toEqual([]);
  }, 30_000);
});

describe("the person's inbox and read marks", () => {
  test("an agent's message to the user is in the person's inbox once; the person marks it read; an agent may not", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "gus", "--command", `troupe send --user 'need a decision' && troupe inbox --json > gus.inbox && troupe signal done`, "--json"]);
    await doneAt("gus", 1);
    // the dashboard's snapshot delivers nothing: the inbox still gets it as new
    expect(await client().messages({ to: "user", unread: true })).toMatchObject([{ fromName: "gus", text: "need a decision", status: "queued" }]);
    const first = await sb.json<Message[]>(["inbox", "--json"]);
    expect(first).toMatchObject([{ fromName: "gus", toId: "user", text: "need a decision", status: "delivered" }]);
    expect(await sb.json<Message[]>(["inbox", "--json"])).toEqual([]);
    expect(readFileSync(join(sb.dir, "gus.inbox"), "utf8").trim()).toBe("[]");
    const read = await client().markRead(first[0]!.id);
    expect(read.status).toBe("read");
    const again = await sb.json<Message[]>(["inbox", "--after", "0", "--json"]);
    expect(again.map((m) => m.status)).toEqual(["read"]);
    expect(await client().messages({ to: "user", unread: true })).toEqual([]);
  }, 30_000);

  test("inbox --wait returns when a message comes; bad input is one line and a non-zero exit", async () => {
    sb = new Sandbox();
    const waiting = sb.start(["inbox", "--wait", "--json"]);
    await waitFor("the daemon", async () => (await sb.daemonPid()) !== null);
    await sb.run(["send", "--user", "hello there"]);
    const out = await new Response(waiting.stdout).text();
    expect(JSON.parse(out)).toMatchObject([{ text: "hello there" }]);
    const timeout = await sb.run(["inbox", "--wait", "--timeout", "100"]);
    expect(timeout.code).toBe(3);
    for (const [args, msg] of [
      [["send", "nobody", "x"], "troupe: no agent 'nobody'\n"],
      [["send", "--supervisor", "x"], "troupe: the person has no supervisor: send to an agent, --user or --all\n"],
      [["send", "--user"], "troupe: send needs the message TEXT\n"],
      [["inbox", "--after", "x"], "troupe: --after takes a whole number, not 'x'\n"],
    ] as const) {
      const r = await sb.run([...args]);
      expect(r.code).not.toBe(0);
      expect(r.stderr.split("\n")[0]).toBe(msg.trimEnd());
    }
  }, 30_000);
});

describe("a daemon killed with -9", () => {
  test("loses no message and doubles none: an agent reading its inbox with a cursor gets each once, in order", async () => {
    sb = new Sandbox();
    const reader = [
      "last=0; n=0",
      "while [ $n -lt 200 ]; do",
      "  out=$(troupe inbox --json --wait --after $last --timeout 30000) || continue",
      "  for s in $(printf '%s' \"$out\" | grep -o '\"seq\":[0-9]*' | cut -d: -f2); do echo $s >> seen.log; last=$s; n=$((n+1)); done",
      "done",
      "troupe signal done",
    ].join("\n");
    await sb.json(["spawn", "--no-worktree", "--name", "hal", "--command", reader, "--json"]);
    const c = client();
    const seqs: number[] = [];
    for (let i = 0; i < 100; i++) seqs.push((await c.send({ to: "hal", text: `a${i}` }))[0]!.seq);
    const oldPid = await sb.daemonPid();
    process.kill(oldPid!, "SIGKILL");
    await waitFor("the old daemon gone", async () => (await sb.daemonPid()) !== oldPid);
    await sb.run(["ls"]); // starts a daemon if the agent's reconnect has not yet
    for (let i = 0; i < 100; i++) seqs.push((await c.send({ to: "hal", text: `b${i}` }))[0]!.seq);
    await doneAt("hal", 1);
    const seen = readFileSync(join(sb.dir, "seen.log"), "utf8").split("\n").filter(Boolean).map(Number);
    expect(seen).toEqual(seqs);
  }, 60_000);
});
