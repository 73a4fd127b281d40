import { afterAll, describe, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAME, FrameReader, GREETING, LinkProtocolError, encodeFrame, jsonFrame, readFrame, type Frame, type Hello } from "../../src/client/link/frames.ts";
import { HelloSchema } from "../../src/protocol/link-frames.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import { API_VERSION } from "../../src/protocol/api/index.ts";

const enc = new TextEncoder();

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

describe("link frames", () => {
  test("frames cut into pieces of any size come out whole, in order; a login shell's noise before the greeting is kept aside", () => {
    const hello: Hello = { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api" };
    const big = new Uint8Array(70_000).map((_, i) => i % 251);
    const bytes = concat([enc.encode("Welcome to box\n"), enc.encode(GREETING), jsonFrame(FRAME.hello, 0, hello), encodeFrame(FRAME.data, 3, big), encodeFrame(FRAME.end, 3)]);
    for (const size of [1, 7, 4096, bytes.length]) {
      const reader = new FrameReader({ greeting: true });
      const frames: Frame[] = [];
      for (let at = 0; at < bytes.length; at += size) frames.push(...reader.push(bytes.slice(at, at + size)));
      expect(frames.map((f) => [f.type, f.stream])).toEqual([
        [FRAME.hello, 0],
        [FRAME.data, 3],
        [FRAME.end, 3],
      ]);
      expect(readFrame(frames[0]!, HelloSchema)).toEqual(hello);
      expect(frames[1]!.payload).toEqual(big);
      expect(reader.noise).toBe("Welcome to box\n");
    }
  });

  test("a foreign stream is a protocol error, never a hang or a huge allocation", () => {
    const reader = new FrameReader();
    const header = new Uint8Array(9);
    header[0] = 99;
    expect(() => reader.push(header)).toThrow(LinkProtocolError);
    const huge = new Uint8Array(9);
    huge[0] = FRAME.data;
    new DataView(huge.buffer).setUint32(5, 0xffffffff);
    expect(() => new FrameReader().push(huge)).toThrow(LinkProtocolError);
    expect(() => new FrameReader({ greeting: true }).push(enc.encode("troupe-link 99\n"))).toThrow(LinkProtocolError);
  });
});

/** A far end that is a shell script (what ssh would run), so the transport's reading of it is tested without ssh. */
function farEnd(script: string, heartbeat = { everyMs: 100, deadMs: 300 }): LinkTransport {
  return new LinkTransport(() => spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "pipe"] }), { name: "box", address: "me@box:/srv/api", timeoutMs: 2_000, installHint: "'troupe remote install box'", heartbeat });
}

/** `printf` octal escapes of bytes, for a far end's script. */
function printfOf(bytes: Uint8Array): string {
  return [...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
}

/** The greeting and HELLO of a far end that says `features`. */
function greeting(features?: Hello["features"]): string {
  return printfOf(concat([enc.encode(GREETING), jsonFrame(FRAME.hello, 0, { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api", ...(features && { features }) })]));
}

/** The frames a far end received, written to `file` by its `cat`. */
function framesIn(file: string): [number, number][] {
  return new FrameReader().push(new Uint8Array(readFileSync(file))).map((f) => [f.type, f.stream]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GET = { method: "GET", headers: {} };

describe("a link's far end, in one line each", () => {
  test("no troupe there (exit 127), ssh failing (exit 255), silence past the timeout", async () => {
    await expect(farEnd("echo 'sh: troupe: not found' >&2; exit 127").hello()).rejects.toThrow(/^box has no troupe \(sh: troupe: not found\); 'troupe remote install box'$/);
    await expect(farEnd("echo 'ssh: connect to host box port 22: Connection refused' >&2; exit 255").hello()).rejects.toThrow("box is unreachable: ssh: connect to host box port 22: Connection refused");
    const started = Date.now();
    const silent = farEnd("exec sleep 30");
    await expect(silent.hello()).rejects.toThrow("box did not answer within 2 s (me@box:/srv/api)");
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test("a troupe of another API version is refused at the greeting with both versions named", async () => {
    const hello = jsonFrame(FRAME.hello, 0, { api: API_VERSION + 1, version: "9.9.9+1", platform: "linux-x64", workspace: "/srv/api" });
    const printf = [...concat([enc.encode(GREETING), hello])].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
    const t = farEnd(`printf '${printf}'; exec sleep 30`);
    await expect(t.hello()).rejects.toThrow(`box runs troupe 9.9.9+1, which speaks API ${API_VERSION + 1}; this troupe speaks API ${API_VERSION}`);
    t.close();
  });
});

describe("the link's heartbeat", () => {
  const dirs: string[] = [];
  const scratch = () => {
    const d = mkdtempSync(join(tmpdir(), "troupe-link-"));
    dirs.push(d);
    return join(d, "in");
  };
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test("a far end gone silent fails the open exchange within the deadline, in one line; with nothing open it is never pinged", async () => {
    const file = scratch();
    const t = farEnd(`printf '${greeting(["ping"])}'; exec cat > ${file}`);
    try {
      await t.hello();
      await sleep(600); // twice the deadline, nothing open: no frame goes out, the link lives
      expect(framesIn(file)).toEqual([]);
      const started = Date.now();
      await expect(t.send("/v1/health", GET)).rejects.toThrow(/^the link to box went silent: nothing from me@box:\/srv\/api for 0.3 s$/);
      const took = Date.now() - started;
      // three checks 100 ms apart: the deadline, give or take a check (and a loaded machine's lateness)
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(3_000);
      // the OPEN, then a PING at each silent check before the last
      expect(framesIn(file)).toEqual([
        [FRAME.open, 1],
        [FRAME.ping, 0],
        [FRAME.ping, 0],
      ]);
    } finally {
      t.close();
    }
  });

  test("an older proxy (no `ping` in its HELLO) is never sent a PING, and its slow reply is waited for", async () => {
    const file = scratch();
    const t = farEnd(`printf '${greeting()}'; exec cat > ${file}`);
    try {
      await t.hello();
      const reply = t.send("/v1/health", GET);
      const outcome = await Promise.race([reply.then(() => "answered", (err: Error) => err.message), sleep(900).then(() => "waiting")]);
      expect(outcome).toBe("waiting");
      expect(framesIn(file)).toEqual([[FRAME.open, 1]]);
      t.close();
      await expect(reply).rejects.toThrow("the link to box was closed");
    } finally {
      t.close();
    }
  });
});
