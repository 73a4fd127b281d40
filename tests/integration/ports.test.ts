import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { portFree } from "../../src/agents/start/ports.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
let outside: Server | null = null;
afterEach(async () => {
  await new Promise((r) => (outside ? outside.close(r) : r(undefined)));
  outside = null;
  await sb?.close();
});

/** A run of `n` ports nothing listens on now, somewhere above the usual ones. */
async function freeRange(n: number): Promise<number> {
  for (let tries = 0; tries < 50; tries++) {
    const from = 20_000 + Math.floor(Math.random() * 30_000);
    const free = await Promise.all(Array.from({ length: n }, (_, i) => portFree(from + i)));
    if (free.every(Boolean)) return from;
  }
  throw new Error(`no run of ${n} free ports found`);
}

function writeConfig(config: unknown) {
  mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
  writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify(config));
}

/** `NAME=VALUE` lines (`env`'s output) as a record. */
const envOf = (path: string) => Object.fromEntries(readFileSync(path, "utf8").split("\n").filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));

describe("a port per worktree", () => {
  test("20 agents get 20 distinct ports, in their environment and setup's, kept across a kill -9; an outside listener is skipped; an exhausted range refuses; rm and gc give them back, a resume takes one again", async () => {
    sb = new Sandbox();
    const from = await freeRange(22);
    const to = from + 21;
    // something else listens on the range's fourth port
    outside = createServer();
    await new Promise<void>((r) => outside!.listen({ port: from + 3, host: "127.0.0.1" }, r));
    const x = sb.exchange;
    writeConfig({ ports: { from, to }, worktree: { setup: `printf "%s %s" "$PORT" "$TROUPE_PORT_1" > "${x}/setup-$TROUPE_AGENT_NAME"` } });
    expect((await sb.run(["trust"])).code).toBe(0);
    const cmd = `env > "${x}/env-$TROUPE_AGENT_NAME.tmp" && mv "${x}/env-$TROUPE_AGENT_NAME.tmp" "${x}/env-$TROUPE_AGENT_NAME"; troupe signal done`;
    const names = Array.from({ length: 20 }, (_, i) => `p${i}`);
    expect((await sb.run(["ls"])).code).toBe(0);
    const spawned = await Promise.all(names.map((n) => sb.json<Agent>(["spawn", "--name", n, "--command", cmd, "--json"])));
    const ports = spawned.map((a) => a.ports);
    expect(ports.every((p) => p.length === 1)).toBe(true);
    const held = ports.flat();
    expect(new Set(held).size).toBe(20);
    expect(held.every((p) => p >= from && p <= to && p !== from + 3)).toBe(true);

    for (const a of spawned) {
      const env = await waitFor(`${a.name}'s environment`, () => existsSync(join(x, `env-${a.name}`)) && envOf(join(x, `env-${a.name}`)), 45_000);
      const port = String(a.ports[0]);
      expect({ name: a.name, PORT: env.PORT, TROUPE_PORT: env.TROUPE_PORT, TROUPE_PORT_1: env.TROUPE_PORT_1 }).toEqual({ name: a.name, PORT: port, TROUPE_PORT: port, TROUPE_PORT_1: port });
      expect(readFileSync(join(x, `setup-${a.name}`), "utf8")).toBe(`${port} ${port}`);
    }
    await waitFor("every agent done", async () => (await sb.json<Agent[]>(["ls", "--json"])).every((a) => a.status === "done"), 45_000);

    // kill -9: the next daemon knows every lease
    await sb.killDaemon();
    const after = await sb.json<Agent[]>(["ls", "--json"]);
    expect(Object.fromEntries(after.map((a) => [a.name, a.ports]))).toEqual(Object.fromEntries(spawned.map((a) => [a.name, a.ports])));
    const left = Array.from({ length: 22 }, (_, i) => from + i).filter((p) => p !== from + 3 && !held.includes(p));
    expect(left.length).toBe(1);
    const late = await sb.json<Agent>(["spawn", "--name", "late", "--command", "troupe signal done", "--json"]);
    expect(late.ports).toEqual(left);

    // none left: refused in one line, nothing made
    const refused = await sb.run(["spawn", "--name", "none-left", "--command", "troupe signal done"]);
    expect({ code: refused.code, stderr: refused.stderr }).toEqual({
      code: 1,
      stderr: `troupe: no free port left in ports ${from}-${to} (workspace config): 21 held by agents' worktrees, 1 in use by other programs\n`,
    });
    expect((await sb.json<Agent[]>(["ls", "--json"])).some((a) => a.name === "none-left")).toBe(false);
    expect(sb.git("branch", "--list", "troupe/none-left").trim()).toBe("");
    expect(existsSync(join(sb.dir, ".troupe", "worktrees", "none-left"))).toBe(false);

    // rm gives its worktree's port back: handed out to the next spawn
    expect((await sb.run(["rm", "p5"])).code).toBe(0);
    const again = await sb.json<Agent>(["spawn", "--name", "again", "--command", "troupe signal done", "--json"]);
    expect(again.ports).toEqual(spawned[5]!.ports);
    // an agent without a worktree gets none
    const bare = await sb.json<Agent>(["spawn", "--no-worktree", "--name", "bare", "--command", "troupe signal done", "--json"]);
    expect(bare.ports).toEqual([]);

    // gc removing an idle worktree gives its ports back too
    await waitFor("every agent done", async () => (await sb.json<Agent[]>(["ls", "--json"])).every((a) => a.status === "done"), 45_000);
    writeConfig({ ports: { from, to }, worktree: { keepDays: 0 } });
    const report = await sb.json<{ removed: { agent: string }[] }>(["gc", "--json"]);
    expect(report.removed.length).toBe(21);
    expect((await sb.json<Agent[]>(["ls", "--json"])).flatMap((a) => a.ports)).toEqual([]);

    // a resume that recreates the worktree takes a port again, in the new session's environment
    rmSync(join(x, "env-p0"));
    const resumed = await sb.json<Agent>(["resume", "p0", "--message", "again", "--json"]);
    expect(resumed.ports).toEqual([from]);
    const env = await waitFor("p0's new environment", () => existsSync(join(x, "env-p0")) && envOf(join(x, "env-p0")), 45_000);
    expect(env.PORT).toBe(String(from));
  }, 120_000);
});
