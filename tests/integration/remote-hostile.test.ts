/**
 * `troupe ls --remote` (the compiled binary) against a hostile far end played by
 * `$TROUPE_SSH_COMMAND` (issue 32, item 5): a HELLO that is no JSON is one line on stderr, at
 * once; a reply that trickles a byte at a time ends at the request's deadline, in one line.
 * tests/client/link-hostile.test.ts holds the same of the transport, and closing a link.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAME, GREETING, encodeFrame, jsonFrame } from "../../src/client/link/frames.ts";
import { API_VERSION } from "../../src/protocol/api/index.ts";
import { Sandbox } from "../support/sandbox.ts";

const enc = new TextEncoder();
const HELLO = jsonFrame(FRAME.hello, 0, { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api", features: ["ping"] });
const printfOf = (bytes: Uint8Array) => [...bytes].map((b) => `\\${b.toString(8).padStart(3, "0")}`).join("");

let sb: Sandbox;
let dir: string;
beforeAll(async () => {
  sb = new Sandbox();
  dir = mkdtempSync(join(tmpdir(), "troupe-hostile-"));
  const add = await sb.run(["remote", "add", "box", "box.example", "--path", "/srv/api"]);
  expect(add.code).toBe(0);
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `troupe ls --remote box` with ssh replaced by `script` (run by sh, its arguments ignored). */
async function lsWith(name: string, script: string, env: Record<string, string> = {}) {
  const file = join(dir, name);
  writeFileSync(file, script);
  const started = Date.now();
  const r = await sb.run(["ls", "--remote", "box"], { env: { TROUPE_SSH_COMMAND: `sh ${file}`, ...env } });
  return { ...r, ms: Date.now() - started };
}

test("a HELLO that is not JSON (or null) is one line on stderr, exit 1, at once", async () => {
  for (const payload of ["{not json", "null"]) {
    const r = await lsWith("bad-hello", `printf '${printfOf(enc.encode(GREETING))}${printfOf(encodeFrame(FRAME.hello, 0, enc.encode(payload)))}'; exec sleep 30\n`);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/box does not speak troupe's link: its HELLO frame is (not JSON|malformed: )/);
    expect(r.ms).toBeLessThan(4_000);
  }
});

test("a reply trickling one byte at a time ends at the request's deadline, in one line", async () => {
  const header = encodeFrame(FRAME.head, 1, new Uint8Array(0));
  new DataView(header.buffer).setUint32(5, 100_000);
  const script = `printf '${printfOf(enc.encode(GREETING))}${printfOf(HELLO)}'; head -c 1 >/dev/null; printf '${printfOf(header)}'; while :; do printf ' '; sleep 0.2; done\n`;
  const r = await lsWith("trickle", script, { TROUPE_REMOTE_REQUEST_TIMEOUT: "2" });
  expect(r.code).toBe(1);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain("box did not answer GET /v1/agents within 2 s");
  expect(r.ms).toBeLessThan(15_000);
});
