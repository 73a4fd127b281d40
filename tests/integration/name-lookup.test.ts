/**
 * A troupe command reaches its daemon through a Unix socket and never asks DNS for anything: Deno's
 * fetch resolved the URL's host ("troupe") even with a socket carrying the request, so every command
 * paid a lookup, and one whose reply the resolver lost waited 5 s (30 clients starting a daemon at
 * once, offline: issue 37's start race). Here the commands run in a network namespace of their own
 * whose only name server is a listener that records each query and never answers.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BIN, Sandbox } from "../support/sandbox.ts";
import { needed } from "../support/tools.ts";

const LISTENER = `const dgram = require("node:dgram");
const { appendFileSync, writeFileSync } = require("node:fs");
const [log, ready] = process.argv.slice(2);
const s = dgram.createSocket("udp4");
// a query's name: length-prefixed labels after the 12-byte header
s.on("message", (m) => {
  const labels = [];
  for (let i = 12; i < m.length && m[i] > 0; i += m[i] + 1) labels.push(m.subarray(i + 1, i + 1 + m[i]).toString());
  appendFileSync(log, labels.join(".") + "\\n");
});
s.bind(53, "127.0.0.1", () => writeFileSync(ready, "up"));
`;

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const canIsolate = process.getuid?.() === 0 && needed("unshare and ip, as root (a network namespace)", Bun.which("unshare") !== null && Bun.which("ip") !== null);

test.skipIf(!canIsolate)("a daemon started, an agent spawned, listed and its output read: not one name looked up", async () => {
  sb = new Sandbox();
  const listener = join(sb.runtime, "dns.js");
  const queries = join(sb.runtime, "queries.txt");
  const resolv = join(sb.runtime, "resolv.conf");
  writeFileSync(listener, LISTENER);
  writeFileSync(queries, "");
  writeFileSync(resolv, "nameserver 127.0.0.1\noptions timeout:1 attempts:1\n");
  const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
  const t = q(BIN);
  const ready = q(join(sb.runtime, "ready"));
  const script = [
    "set -e",
    "ip link set lo up",
    `mount --bind ${q(resolv)} /etc/resolv.conf`,
    // gone however the script ends: a command that fails stops it under set -e
    `${q(process.execPath)} ${q(listener)} ${q(queries)} ${ready} & dns=$!`,
    "trap 'kill $dns' EXIT",
    `while [ ! -e ${ready} ]; do sleep 0.05; done`,
    // the lookup is seen: the name server is the listener
    `getent hosts probe.example >/dev/null || true`,
    `${t} ls --json >/dev/null`,
    `${t} spawn --no-worktree --name quiet --command 'echo hello' --json >/dev/null`,
    // it ends without a signal, which logs -f says on stderr
    `${t} logs quiet -f >/dev/null 2>&1`,
    `${t} ls --json >/dev/null`,
    `${t} daemon stop >/dev/null`,
  ].join("\n");
  const p = Bun.spawn(["unshare", "--net", "--mount", "sh", "-c", script], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" });
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  const names = readFileSync(queries, "utf8").split("\n").filter(Boolean);
  expect(names).toContain("probe.example");
  expect(names.filter((n) => n !== "probe.example")).toEqual([]);
}, 60_000);
