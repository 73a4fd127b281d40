import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { Sandbox } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

type Listed = Agent & { remote: string | null; workspace: string };

let a: Sandbox | undefined;
let b: Sandbox | undefined;
let runtime: string | undefined;
afterEach(async () => {
  // several workspaces keep their sockets in the runtime folder (TROUPE_SOCKET names one): stop them there
  for (const sb of [a, b]) if (sb) await sb.run(["daemon", "stop"], { env: { TROUPE_SOCKET: "", XDG_RUNTIME_DIR: runtime! } });
  await a?.close();
  await b?.close();
  if (runtime) rmSync(runtime, { recursive: true, force: true });
  a = b = runtime = undefined;
});

/** Two workspaces whose daemons live in one runtime folder of the test's own (as a user's do). */
function twoWorkspaces(): { env: Record<string, string> } {
  a = new Sandbox();
  b = new Sandbox();
  runtime = mkdtempSync("/tmp/trr-");
  Sandbox.runtimes.push(runtime);
  return { env: { TROUPE_SOCKET: "", XDG_RUNTIME_DIR: runtime } };
}

test("ls --workspace A --workspace B: both in one list, grouped, each agent with its workspace; -A finds the live ones", async () => {
  const { env } = twoWorkspaces();
  await a!.json(["spawn", "--no-worktree", "--name", "alpha", "--command", "sleep 600", "--json"], { env });
  await b!.json(["spawn", "--no-worktree", "--name", "beta", "--command", "sleep 600", "--json"], { env });
  const both = await a!.json<Listed[]>(["ls", "--workspace", a!.dir, "--workspace", b!.dir, "--json"], { env });
  expect(both.map((x) => [x.name, x.remote, x.workspace])).toEqual([
    ["alpha", null, a!.dir],
    ["beta", null, b!.dir],
  ]);
  const text = await a!.run(["ls", "--workspace", a!.dir, "--workspace", b!.dir], { env });
  expect(text.code).toBe(0);
  expect(text.stdout.split("\n").filter((l) => l.startsWith("== "))).toEqual([`== ${a!.dir}`, `== ${b!.dir}`]);
  // -A: every workspace with a live daemon in the runtime folder, this one first
  const all = await b!.json<Listed[]>(["ls", "-A", "--json"], { env });
  expect(all.map((x) => x.name)).toEqual(["beta", "alpha"]);
  // one workspace is troupe ls as it was
  const one = await a!.json<Record<string, unknown>[]>(["ls", "--workspace", b!.dir, "--json"], { env });
  expect(one.map((x) => x.name)).toEqual(["beta"]);
  expect("workspace" in one[0]!).toBe(false);
  for (const [sb, name] of [[a!, "alpha"], [b!, "beta"]] as const) await sb.run(["stop", name], { env });
});

test("a workspace that cannot be reached: the others listed, one line on stderr for it, exit 1", async () => {
  const { env } = twoWorkspaces();
  await a!.json(["spawn", "--no-worktree", "--name", "alpha", "--command", "true", "--json"], { env });
  const gone = `${b!.dir}-gone`;
  const r = await a!.run(["ls", "--workspace", a!.dir, "--workspace", gone, "--json"], { env });
  expect(r.code).toBe(1);
  expect((JSON.parse(r.stdout) as Listed[]).map((x) => x.name)).toEqual(["alpha"]);
  const lines = r.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith(`troupe: ${gone}: `);
  // -A with no live daemon in the runtime folder and no remote: a line saying so, not silence
  const empty = mkdtempSync("/tmp/trr-");
  try {
    const none = await a!.run(["ls", "-A"], { env: { ...env, XDG_RUNTIME_DIR: empty } });
    expect(none.code).toBe(0);
    expect(none.stdout).toStartWith("no workspace with a live daemon here");
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
  const unknown = await a!.run(["ls", "--remote", "nope"], { env });
  expect(unknown.code).toBe(1);
  expect(unknown.stderr).toContain("no remote 'nope'");
});
