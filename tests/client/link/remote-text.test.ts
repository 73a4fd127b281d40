import { afterAll, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FRAME, GREETING, jsonFrame } from "../../../src/client/link/frames.ts";
import { LinkTransport } from "../../../src/client/link/link-transport.ts";
import { REMOTE_TEXT_MAX, remoteText } from "../../../src/client/link/remote-text.ts";
import { API_VERSION } from "../../../src/protocol/api/index.ts";

const dir = mkdtempSync(join(tmpdir(), "troupe-remote-text-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** 100 KB of a remote's words, as a hostile far end sent them (issue 32). */
const HUGE = `no such workspace \x1b]0;PWNED\x07${"A".repeat(100_000)}`;

/** A far end whose stdout is `frames` (after the greeting), then what `then` runs. */
function farEnd(name: string, frames: Uint8Array[], then = "exec sleep 30"): LinkTransport {
  const file = join(dir, name);
  writeFileSync(file, Buffer.concat([Buffer.from(GREETING), ...frames.map((f) => Buffer.from(f))]));
  return new LinkTransport(() => spawn("sh", ["-c", `cat ${file}; ${then}`], { stdio: ["pipe", "pipe", "pipe"] }), { name: "box", address: "me@box:/srv/api", timeoutMs: 5_000, installHint: "'troupe remote install box'" });
}

const hello = (extra: object = {}) => jsonFrame(FRAME.hello, 0, { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api", ...extra });

test("remoteText cuts a remote's words to a line's worth, leaving short ones as they are", () => {
  expect(remoteText("folder missing")).toBe("folder missing");
  const cut = remoteText(HUGE);
  expect(cut.length).toBe(REMOTE_TEXT_MAX);
  expect(cut.endsWith("…")).toBe(true);
});

test("a HELLO's error, a FAIL's message and another API's version reach the message cut, whatever their length", async () => {
  const refused = farEnd("hello-error", [hello({ error: { code: "not_found", message: HUGE } })]);
  const err = await refused.hello().then(() => null, (e: Error) => e);
  expect(err?.message).toStartWith("box: no such workspace");
  expect(err!.message.length).toBeLessThanOrEqual(REMOTE_TEXT_MAX + 10);
  refused.close();

  const other = farEnd("hello-version", [hello({ api: API_VERSION + 1, version: HUGE })]);
  const old = await other.hello().then(() => null, (e: Error) => e);
  expect(old?.message).toStartWith("box runs troupe no such workspace");
  expect(old!.message.length).toBeLessThan(REMOTE_TEXT_MAX + 200);
  other.close();

  // the FAIL is sent once the request's first byte came in: a frame for a stream not yet open is dropped
  const failing = farEnd("fail", [hello()], `head -c 1 >/dev/null; cat ${join(dir, "fail.bin")}; exec sleep 30`);
  writeFileSync(join(dir, "fail.bin"), jsonFrame(FRAME.fail, 1, { code: "not_found", message: HUGE, delivered: true }));
  const failed = await failing.send("/v1/health", { method: "GET", headers: {} }).then(() => null, (e: Error) => e);
  expect(failed?.message).toStartWith("no such workspace");
  expect(failed!.message.length).toBe(REMOTE_TEXT_MAX);
  failing.close();
});
