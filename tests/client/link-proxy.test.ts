/**
 * The proxy's end of the link's heartbeat (src/client/link/proxy.ts): it answers PING at once, and
 * ends a link whose client pinged once and then fell silent with an exchange in flight (a laptop
 * asleep: sshd would keep the session and this proxy for hours). The daemon behind it is a
 * transport that holds an event stream open; the client is frames written to its input.
 */
import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { FRAME, FrameReader, GREETING, encodeFrame, jsonFrame, type Frame } from "../../src/client/link/frames.ts";
import { serveLink } from "../../src/client/link/proxy.ts";
import type { Exchange, Transport } from "../../src/client/transport.ts";
import { API_VERSION } from "../../src/protocol/api/index.ts";

const DEADLINE = { everyMs: 50, deadMs: 150 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A daemon whose every reply is an event stream that stays open until the request is aborted. */
function holdingDaemon(): Transport & { aborted: number } {
  const daemon = {
    address: "test",
    aborted: 0,
    async send(_path: string, ex: Exchange): Promise<Response> {
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          ex.signal?.addEventListener("abort", () => {
            daemon.aborted++;
            c.error(new DOMException("aborted", "AbortError"));
          });
        },
      });
      return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
    },
  };
  return daemon;
}

function proxyOf(daemon: Transport) {
  const input = new PassThrough();
  const output = new PassThrough();
  const frames: Frame[] = [];
  const reader = new FrameReader({ greeting: true });
  output.on("data", (b: Buffer) => frames.push(...reader.push(new Uint8Array(b))));
  let ended = false;
  const done = serveLink({ input, output }, daemon, { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api" }, DEADLINE).then(() => void (ended = true));
  const open = (stream: number) => input.write(jsonFrame(FRAME.open, stream, { method: "GET", path: "/v1/events", headers: {} }));
  const ping = () => input.write(encodeFrame(FRAME.ping, 0, new Uint8Array([7])));
  return { input, frames, done, open, ping, ended: () => ended };
}

describe("the proxy and the link's heartbeat", () => {
  test("a PING is answered at once with its payload; a client that pinged and fell silent with a stream open is let go within the deadline", async () => {
    expect(GREETING).toBe("troupe-link 1\n");
    const daemon = holdingDaemon();
    const p = proxyOf(daemon);
    p.open(1);
    p.ping();
    await sleep(30);
    // the HELLO first; the PONG does not wait for the daemon's reply (nor the reply for it)
    expect(p.frames[0]!.type).toBe(FRAME.hello);
    expect(p.frames.slice(1).map((f) => [f.type, f.stream]).sort()).toEqual([
      [FRAME.head, 1],
      [FRAME.pong, 0],
    ]);
    expect([...p.frames.find((f) => f.type === FRAME.pong)!.payload]).toEqual([7]);
    // a live client pings on: the link stays for many deadlines
    for (let i = 0; i < 12; i++) {
      await sleep(40);
      p.ping();
    }
    expect(p.ended()).toBe(false);
    // then nothing (its laptop asleep): the link ends, the stream to the daemon is cancelled
    const started = Date.now();
    await p.done;
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(daemon.aborted).toBe(1);
  });

  test("an older client, which never pings, is never let go for silence; nor a pinging one with nothing in flight", async () => {
    const old = proxyOf(holdingDaemon());
    old.open(1);
    const idle = proxyOf(holdingDaemon());
    idle.ping();
    await sleep(DEADLINE.deadMs * 5);
    expect(old.ended()).toBe(false);
    expect(idle.ended()).toBe(false);
    // either ends when its input does (the ssh session closed)
    old.input.end();
    idle.input.end();
    await Promise.all([old.done, idle.done]);
  });
});
