/**
 * A far end that misbehaves (issue 32, item 5): every frame it sends is untrusted input, read
 * through one parse that makes anything malformed one line; each request has a deadline that a
 * reply trickling a byte at a time cannot outlive; and closing a link ends every process of it,
 * ssh under a `$TROUPE_SSH_COMMAND` wrapper included. The far ends are shell scripts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAME, GREETING, encodeFrame, jsonFrame } from "../../src/client/link/frames.ts";
import { spawnLink } from "../../src/client/link/link-process.ts";
import { LinkTransport } from "../../src/client/link/link-transport.ts";
import { remoteTransport } from "../../src/client/remote.ts";
import { API_VERSION } from "../../src/protocol/api/index.ts";
import { waitFor } from "../support/sandbox.ts";
import { isProcessAlive } from "../../src/process-info.ts";

const enc = new TextEncoder();
const GET = { method: "GET", headers: {} };
const HELLO = { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api", features: ["ping"] };

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
}

/** `printf` octal escapes of bytes, for a far end's script. */
const printfOf = (bytes: Uint8Array) => [...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");
const greeted = (hello: Uint8Array) => printfOf(concat([enc.encode(GREETING), hello]));

const links: LinkTransport[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const l of links.splice(0)) l.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A far end that is a shell script, its heartbeat quick (a trickle every 50 ms keeps it alive). */
function farEnd(script: string, requestTimeoutMs = 800): LinkTransport {
  const t = new LinkTransport(() => spawnLink(["sh", "-c", script], process.env), {
    name: "box",
    address: "me@box:/srv/api",
    timeoutMs: 5_000,
    installHint: "",
    heartbeat: { everyMs: 100, deadMs: 300 },
    requestTimeoutMs,
  });
  links.push(t);
  return t;
}

/** How a promise ended, or `hung` when it has not within `ms`. */
async function outcome(p: Promise<unknown>, ms: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<string>((resolve) => (timer = setTimeout(() => resolve("hung"), ms)));
  try {
    return await Promise.race([p.then(() => "resolved", (err: Error) => err.message), bound]);
  } finally {
    clearTimeout(timer);
  }
}

describe("every frame from the far end is read through one parse", () => {
  test("a HELLO that is not JSON, is null, or lacks a field fails the link in one line, at once", async () => {
    const cases: [Uint8Array, RegExp][] = [
      [encodeFrame(FRAME.hello, 0, enc.encode("{not json")), /^box does not speak troupe's link: its HELLO frame is not JSON$/],
      [encodeFrame(FRAME.hello, 0, enc.encode("null")), /^box does not speak troupe's link: its HELLO frame is malformed: /],
      [jsonFrame(FRAME.hello, 0, { api: API_VERSION }), /^box does not speak troupe's link: its HELLO frame is malformed at version: /],
      [jsonFrame(FRAME.hello, 0, { ...HELLO, features: "ping" }), /^box does not speak troupe's link: its HELLO frame is malformed at features: /],
    ];
    for (const [hello, message] of cases) {
      const started = Date.now();
      const said = await outcome(farEnd(`printf '${greeted(hello)}'; exec sleep 30`).hello(), 4_000);
      expect(said).toMatch(message);
      expect(said).not.toContain("\n");
      expect(Date.now() - started).toBeLessThan(3_000);
    }
  });

  test("a malformed HEAD or FAIL of a reply fails the request in one line", async () => {
    const heads = [encodeFrame(FRAME.head, 1, enc.encode("[1,2")), jsonFrame(FRAME.head, 1, { status: 42, headers: {} }), jsonFrame(FRAME.fail, 1, { message: 7 })];
    for (const frame of heads) {
      const t = farEnd(`printf '${greeted(jsonFrame(FRAME.hello, 0, HELLO))}'; head -c 1 >/dev/null; printf '${printfOf(frame)}'; exec sleep 30`);
      await t.hello();
      const said = await outcome(t.send("/v1/health", GET), 4_000);
      expect(said).toMatch(/^box does not speak troupe's link: its (HEAD|FAIL) frame is (not JSON|malformed at (status|message): .*)$/);
    }
  });
});

describe("each request has a deadline", () => {
  test("a reply trickling a byte every 50 ms (the heartbeat hears it live) fails at the deadline, in one line", async () => {
    // a HEAD that says 1,000 bytes follow, then one space at a time
    const header = encodeFrame(FRAME.head, 1, new Uint8Array(0));
    new DataView(header.buffer).setUint32(5, 1_000);
    const t = farEnd(`printf '${greeted(jsonFrame(FRAME.hello, 0, HELLO))}'; printf '${printfOf(header)}'; while :; do printf ' '; sleep 0.05; done`);
    await t.hello();
    const started = Date.now();
    expect(await outcome(t.send("/v1/agents", GET), 8_000)).toBe("box did not answer GET /v1/agents within 0.8 s (me@box:/srv/api)");
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  test("a body that never ends fails at the deadline; an event stream's body flows past it", async () => {
    const hello = greeted(jsonFrame(FRAME.hello, 0, HELLO));
    const data = (stream: number) => printfOf(encodeFrame(FRAME.data, stream, enc.encode(": x\n\n")));
    const head = (stream: number, type: string) => printfOf(jsonFrame(FRAME.head, stream, { status: 200, headers: { "content-type": type } }));
    const json = farEnd(`printf '${hello}'; head -c 1 >/dev/null; printf '${head(1, "application/json")}'; while :; do printf '${data(1)}'; sleep 0.05; done`);
    await json.hello();
    const res = await json.send("/v1/agents", GET);
    expect(await outcome(res.text(), 8_000)).toBe("box did not answer GET /v1/agents within 0.8 s (me@box:/srv/api)");

    const sse = farEnd(`printf '${hello}'; head -c 1 >/dev/null; printf '${head(1, "text/event-stream")}'; while :; do printf '${data(1)}'; sleep 0.05; done`);
    await sse.hello();
    const events = await sse.send("/v1/events", { ...GET, headers: { accept: "text/event-stream" } });
    const reader = events.body!.getReader();
    const started = Date.now();
    let bytes = 0;
    while (Date.now() - started < 2_000) {
      const { value, done } = await reader.read();
      expect(done).toBe(false);
      bytes += value!.length;
    }
    expect(bytes).toBeGreaterThan(0);
    await reader.cancel();
  });
});

describe("closing a link ends all of it", () => {
  test("ssh under a $TROUPE_SSH_COMMAND wrapper (a child of it, not the wrapper itself) is gone once the link closes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "troupe-link-"));
    dirs.push(dir);
    const pids = join(dir, "pids");
    // the fake ssh: greets as a proxy would, and keeps a child of its own (as a wrapper's ssh is)
    writeFileSync(join(dir, "fake-ssh"), `printf '${greeted(jsonFrame(FRAME.hello, 0, HELLO))}'\nsleep 300 &\necho "$$ $!" > ${pids}\nwait\n`);
    const t = remoteTransport("box", { host: "box", path: "/srv/api" }, { ...process.env, TROUPE_SSH_COMMAND: `sh ${join(dir, "fake-ssh")}` });
    links.push(t);
    const alive = (pid: number) => isProcessAlive(pid, null);
    let started: number[] = [];
    try {
      await t.hello();
      started = await waitFor("the fake ssh's pids", () => readFileSync(pids, "utf8").trim().split(" ").map(Number).filter((n) => n > 0).length === 2 && readFileSync(pids, "utf8").trim().split(" ").map(Number));
      expect(started.every(alive)).toBe(true);
      t.close();
      await waitFor("every process of the link to be gone", () => !started.some(alive), 5_000);
    } finally {
      for (const pid of started.filter(alive)) process.kill(pid, "SIGKILL");
    }
  });
});
