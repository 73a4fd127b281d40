import { afterAll, beforeAll, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TroupeError } from "../../src/errors.ts";
import { Logger } from "../../src/events/log.ts";
import type { SpawnRequest } from "../../src/protocol/api-agents.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { InitiativeRecord } from "../../src/store/initiatives.ts";
import type { TaskRecord } from "../../src/store/tasks.ts";
import type { SpawnWork } from "../../src/agents/files/input-folder.ts";
import { HostTasks } from "../../src/work/host-tasks.ts";
import type { HostPort } from "../../src/work/host-port.ts";

// A real repository here and a bare one as the host's; the host's daemon is a recorder of spawns.
const ID = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };
let dir: string;
let here: string;
let there: string;
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: { ...process.env, ...ID }, encoding: "utf8" }).trim();
const init = { id: "ini1", branch: "troupe/init-shop" } as InitiativeRecord;
const task = (id: string, dependsOn: string[]) => ({ id, slug: id, dependsOn, host: "east", hostAgent: `${id}-abc` }) as TaskRecord;
const OPTS = { provider: "claude", env: {} };
const work: SpawnWork = { mode: "execute", initiativeId: "ini1", phaseId: "p1", taskId: "t", files: [] };

function port(spawn: (req: SpawnRequest) => Agent, agent: Agent | null = null) {
  const spawns: SpawnRequest[] = [];
  const p: HostPort = {
    list: async () => [],
    git: () => ({ url: there, env: { PATH: process.env.PATH!, HOME: dir } }),
    spawn: async (_host, req) => {
      spawns.push(req);
      return spawn(req);
    },
    agent: async () => agent,
    agentUpdates: async function* () {},
    resume: async () => {
      throw new Error("not asked");
    },
  };
  return { port: p, spawns };
}

const spawned = (req: SpawnRequest) => ({ name: req.name, branch: `troupe/${req.name}` }) as Agent;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "troupe-host-tasks-"));
  here = join(dir, "here");
  there = join(dir, "there.git");
  execFileSync("git", ["init", "-q", "-b", "main", here]);
  execFileSync("git", ["init", "-q", "--bare", there]);
  git(here, "commit", "-q", "--allow-empty", "-m", "first");
  git(here, "branch", init.branch);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(what: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !what(); i++) await Bun.sleep(25);
  expect(what()).toBe(true);
}

test("the initiative branch pushed ahead: a task whose dependencies it holds starts from that commit, no push of its own", async () => {
  const { port: p, spawns } = port(spawned);
  const tasks = new HostTasks({ root: here, port: p, log: new Logger(join(dir, "daemon.log")) });
  const held = git(here, "rev-parse", init.branch);
  tasks.pushBase(init, new Set(["dep"]), ["east"]);
  await until(() => git(there, "for-each-ref", "--format=%(objectname)", "refs/heads/troupe-pool/base-ini1") === held);
  await Bun.sleep(250); // the push's end recorded (git's exit seen)
  expect(await tasks.start(init, task("ready", ["dep"]), work, OPTS)).toBe("troupe/ready-abc");
  expect(spawns[0]!.baseRef).toBe(held);
  expect(git(there, "for-each-ref", "refs/heads/troupe-pool/ready")).toBe("");

  // the branch moved on since (another task merged): one whose dependencies the host holds still
  // starts from the held commit; one that needs the newer merge gets the branch pushed for it
  git(here, "checkout", "-q", init.branch);
  git(here, "commit", "-q", "--allow-empty", "-m", "merged: other");
  const now = git(here, "rev-parse", init.branch);
  await tasks.start(init, task("also-ready", []), work, OPTS);
  expect(spawns[1]!.baseRef).toBe(held);
  await tasks.start(init, task("needs-other", ["dep", "other"]), work, OPTS);
  expect(spawns[2]!.baseRef).toBe("troupe-pool/needs-other");
  expect(git(there, "rev-parse", "refs/heads/troupe-pool/needs-other")).toBe(now);
});

test("a spawn of the name refused (a dead daemon sent it): the agent there is found by its name, not started twice", async () => {
  const found = { name: "t9-abc", branch: "troupe/t9-abc" } as Agent;
  const refuse = () => {
    throw new TroupeError("conflict", "the name 't9-abc' is taken");
  };
  const { port: p, spawns } = port(refuse, found);
  const tasks = new HostTasks({ root: here, port: p, log: new Logger(join(dir, "daemon.log")) });
  expect(await tasks.start(init, task("t9", []), work, OPTS)).toBe("troupe/t9-abc");
  expect(spawns.length).toBe(1);
  // still being started there (not listed yet): a timeout, so the start is asked again later
  const { port: q } = port(refuse, null);
  const err = await new HostTasks({ root: here, port: q, log: new Logger(join(dir, "daemon.log")) }).start(init, task("t9", []), work, OPTS).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TroupeError);
  expect((err as TroupeError).code).toBe("timeout");
});
