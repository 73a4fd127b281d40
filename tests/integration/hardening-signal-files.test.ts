import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import { within as withinIn } from "../support/within.ts";

// Agents that leave something hostile at their signal path and exit. Before, a FIFO blocked the
// daemon in open() for good (and the next daemon at its start), a link to /dev/zero grew it
// without end, a link out of the folder was read as the agent's own signal.

interface AgentJson {
  id: string;
  name: string;
  status: string;
  error: string | null;
  result: string | null;
  pid: number | null;
}

const HOSTILE: { name: string; setup: string; reason: RegExp }[] = [
  { name: "fifo", setup: 'mkfifo "$TROUPE_SIGNAL_FILE"', reason: /signal\.json is a FIFO \(named pipe\), not a regular file/ },
  { name: "zero", setup: 'ln -s /dev/zero "$TROUPE_SIGNAL_FILE"', reason: /signal\.json leads outside the agent's folder \(to \/dev\/zero\)/ },
  { name: "stolen", setup: 'ln -s "$TROUPE_WORKSPACE/outside.json" "$TROUPE_SIGNAL_FILE"', reason: /signal\.json leads outside the agent's folder/ },
  { name: "folder", setup: 'mkdir "$TROUPE_SIGNAL_FILE"', reason: /signal\.json is a directory, not a regular file/ },
  { name: "huge", setup: 'head -c 100000000 /dev/zero > "$TROUPE_SIGNAL_FILE"', reason: /signal\.json is larger than 1 MiB/ },
];

let sb: Sandbox;
beforeAll(async () => {
  sb = new Sandbox();
  // a valid signal outside every agent's folder: following a link to it would make the agent "done"
  writeFileSync(join(sb.dir, "outside.json"), JSON.stringify({ status: "done", result: "not mine" }));
  await sb.run(["daemon", "start"]);
});
afterAll(async () => {
  await sb.close();
});

const within = (args: string[], ms?: number) => withinIn(sb, args, ms);

async function agents(): Promise<AgentJson[]> {
  const r = await within(["ls", "--json"]);
  if (r.code !== 0) throw new Error(`ls: ${r.stderr}`);
  return JSON.parse(r.stdout) as AgentJson[];
}

async function ended(names: string[]): Promise<Map<string, AgentJson>> {
  return waitFor(`${names.join(", ")} to end`, async () => {
    const all = await agents();
    const mine = all.filter((a) => names.includes(a.name));
    return mine.length === names.length && mine.every((a) => a.status !== "running" && a.status !== "starting") ? new Map(mine.map((a) => [a.name, a])) : undefined;
  }, 30_000);
}

function spawn(name: string, command: string) {
  return within(["spawn", "--no-worktree", "--name", name, "--command", command, "--json"]);
}

describe("a hostile signal file fails its agent with a clear reason; the daemon keeps serving", () => {
  for (const h of HOSTILE) {
    test(h.name, async () => {
      const r = await spawn(h.name, `${h.setup}; exit 0`);
      expect(r.code).toBe(0);
      const a = (await ended([h.name])).get(h.name)!;
      expect(a.status).toBe("failed");
      expect(a.error).toStartWith("signal file refused: ");
      expect(a.error).toMatch(h.reason);
      // still serving
      expect((await within(["daemon", "status", "--json"])).code).toBe(0);
    }, 60_000);
  }

  test("a daemon killed while they ran starts again and completes them at its start", async () => {
    const go = join(sb.dir, "go");
    const names = HOSTILE.map((h) => `late-${h.name}`);
    for (const [i, h] of HOSTILE.entries()) {
      expect((await spawn(names[i]!, `${h.setup}; while [ ! -e "${go}" ]; do sleep 0.05; done; exit 0`)).code).toBe(0);
    }
    const running = await waitFor("all running", async () => {
      const mine = (await agents()).filter((a) => names.includes(a.name));
      return mine.length === names.length && mine.every((a) => a.status === "running" && a.pid !== null) ? mine : undefined;
    });
    const daemon = await sb.daemonPid();
    process.kill(daemon!, "SIGKILL");
    writeFileSync(go, "");
    await waitFor("the agents to exit", () =>
      running.every((a) => {
        try {
          process.kill(a.pid!, 0);
          return false;
        } catch {
          return true;
        }
      }),
    );
    // any client starts the next daemon; it must serve, not hang reading their files
    const after = await ended(names);
    expect(await sb.daemonPid()).not.toBe(daemon);
    for (const [i, h] of HOSTILE.entries()) {
      const a = after.get(names[i]!)!;
      expect(a.status).toBe("failed");
      expect(a.error).toMatch(h.reason);
    }
  }, 60_000);
});
