/**
 * Spawning a shell-command agent without a worktree, against the compiled daemon:
 *  - API: `POST /v1/agents` (generic provider, `sleep`, no worktree) through the typed client,
 *    until the reply (the agent running: recorded, input written, wrapper started, followed),
 *    interleaved with the floor: a bare detached `sh -c sleep` started from this process with its
 *    output to files (what starting any process costs here);
 *  - cold `troupe spawn --no-worktree --command ...` processes, beside `troupe --version`;
 *  - the sandbox (src/sandbox/): spawn to the agent's first command running, sandboxed (`auto`)
 *    and not (`off`), interleaved, and the memory bubblewrap adds per agent (PSS of its processes).
 * The agents stay alive until the end (each spawn sees the ones before it), then are killed by
 * their process groups. Machine load printed beside each figure (see floor.ts).
 * Usage: bun scripts/bench/spawn.ts [spawns=100] [processRuns=20]   (TROUPE_BIN: another build)
 */
import { spawn as spawnChild } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { TroupeClient } from "../../src/client/client.ts";
import { BIN, line, load, ms, pct, processCpuMs, timeProcess, type Timed } from "./floor.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { runSync, start } from "../lib/process.ts";
import { cmdline, descendants, memoryKb } from "./proc-stats.ts";

const spawns = Number(process.argv[2] ?? 100);
const processRuns = Number(process.argv[3] ?? 20);
const WARM = 5;
const COMMAND = "sleep 100000";

const dir = mkdtempSync(join(tmpdir(), "troupe-bench-spawn-"));
runSync(["git", "init", "-q", dir]);
const runtime = mkdtempSync("/tmp/tb-");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: join(runtime, "d.sock") } as Record<string, string>;
const agentEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" };
const floorPids: number[] = [];

/** A detached `sh -c sleep`, output appended to files: resolves once it runs. */
function bareSpawn(i: number): Promise<void> {
  const out = openSync(join(runtime, `floor-${i}.out`), "a");
  const err = openSync(join(runtime, `floor-${i}.err`), "a");
  return new Promise((resolve, reject) => {
    const child = spawnChild("/bin/sh", ["-c", COMMAND], { detached: true, stdio: ["ignore", out, err], env: agentEnv });
    child.once("error", reject);
    child.once("spawn", () => {
      closeSync(out);
      closeSync(err);
      child.unref();
      floorPids.push(child.pid!);
      resolve();
    });
  });
}

/** Every agent wrapper this run started leads its own process group (its pid is in a file beside its log). */
function killAgents(): void {
  const logs = join(dir, ".troupe", "logs");
  if (!existsSync(logs)) return;
  for (const name of readdirSync(logs)) {
    for (const f of readdirSync(join(logs, name)).filter((f) => f.endsWith(".pid"))) {
      const pid = Number(readFileSync(join(logs, name, f), "utf8"));
      if (pid > 0) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {}
      }
    }
  }
}

/** Until the agent's own command runs: it makes a file in the workspace (an agent without a worktree may write there). */
async function untilRunning(client: TroupeClient, sandbox: "auto" | "off" | "allow", i: number): Promise<{ ms: number; pid: number }> {
  const marker = join(dir, `started-${sandbox}-${i}`);
  const t0 = performance.now();
  const how = sandbox === "allow" ? { sandbox: "auto" as const, network: "allow" as const } : { sandbox };
  const agent = await client.spawn({ provider: "generic", command: `: > ${marker}; exec ${COMMAND}`, worktree: false, env: agentEnv, ...how });
  while (!existsSync(marker)) await sleep(0.5);
  if (agent.sandbox?.sandboxed !== (sandbox !== "off")) throw new Error(`agent ${agent.name}: sandbox ${JSON.stringify(agent.sandbox)}`);
  return { ms: performance.now() - t0, pid: agent.pid! };
}

/** PSS (MB) of the processes under an agent's wrapper whose command line `which` matches. */
const pssOf = (pid: number, which: (cmd: string) => boolean) => descendants(pid).filter((p) => which(cmdline(p))).reduce((sum, p) => sum + (memoryKb(p)?.pss ?? 0), 0) / 1024;
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

async function sandboxCost(client: TroupeClient): Promise<void> {
  const runs = Math.max(10, Math.min(40, spawns / 2));
  const on: number[] = [];
  const off: number[] = [];
  const allow: number[] = [];
  const bwrapPss: number[] = [];
  const proxyPss: number[] = [];
  const isBwrap = (c: string) => c.startsWith("/usr/bin/bwrap") || c.startsWith("bwrap");
  for (let i = 0; i < runs + WARM; i++) {
    const a = await untilRunning(client, "auto", i);
    const b = await untilRunning(client, "off", i);
    const c = await untilRunning(client, "allow", i);
    if (i < WARM) continue;
    on.push(a.ms);
    off.push(b.ms);
    allow.push(c.ms);
    // bubblewrap's own processes under the wrapper (the one outside, and the namespace's init)
    bwrapPss.push(pssOf(a.pid, isBwrap));
    // network allow: bubblewrap's, and troupe's proxy (outside) and bridge (inside)
    proxyPss.push(pssOf(c.pid, (cmd) => isBwrap(cmd) || cmd.includes(" sandbox-net ")));
  }
  const added = pct(on, 50) - pct(off, 50);
  console.log(line(`spawn to the agent's command running, sandboxed (auto)`, on, ""));
  console.log(line(`spawn to the agent's command running, unsandboxed (off)`, off, `; the sandbox adds ${ms(added)} at the median (target <= 30 ms)`));
  console.log(line(`spawn to the agent's command running, sandboxed with network allow`, allow, `; its proxy and bridge add ${ms(pct(allow, 50) - pct(on, 50))} over auto at the median`));
  console.log(`memory the sandbox adds per agent (bubblewrap's processes, PSS, median of ${bwrapPss.length}): ${median(bwrapPss).toFixed(2)} MB`);
  console.log(`memory the sandbox adds per agent with network allow (bubblewrap's, troupe's proxy and bridge, PSS, median of ${proxyPss.length}): ${median(proxyPss).toFixed(2)} MB`);
}

try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start`);
  await start([BIN, "daemon", "start"], { env, stdout: "ignore" }).exited;
  const client = new TroupeClient({ socket: env.TROUPE_SOCKET! });

  const daemonPid = (await client.health()).pid;
  const api: number[] = [];
  const floor: number[] = [];
  let cpu0 = 0;
  for (let i = 0; i < spawns + WARM; i++) {
    if (i === WARM) cpu0 = processCpuMs(daemonPid);
    const t0 = performance.now();
    const agent = await client.spawn({ provider: "generic", command: COMMAND, worktree: false, env: agentEnv });
    const t1 = performance.now();
    await bareSpawn(i);
    const t2 = performance.now();
    if (agent.status !== "running") throw new Error(`spawned agent is ${agent.status}`);
    if (i < WARM) continue;
    api.push(t1 - t0);
    floor.push(t2 - t1);
  }
  const perSpawn = (processCpuMs(daemonPid) - cpu0) / spawns;
  console.log(line(`API spawn, shell command, no worktree`, api, `; daemon CPU ${ms(perSpawn)} per spawn`));
  console.log(line(`floor: a bare detached sh -c with output to files`, floor, `; spawn/floor ${(pct(api, 50) / pct(floor, 50)).toFixed(2)}x at the median`));

  const cli: Timed[] = [];
  const versions: Timed[] = [];
  for (let i = 0; i < processRuns; i++) {
    const c = await timeProcess([BIN, "spawn", "--no-worktree", "--command", COMMAND], env);
    if (c.code !== 0) throw new Error(`troupe spawn: ${c.stderr}`);
    cli.push(c);
    versions.push(await timeProcess([BIN, "--version"], env));
  }
  const cpuNote = (xs: Timed[]) => `, CPU median ${ms(pct(xs.map((x) => x.cpu), 50))}`;
  console.log(line(`cold 'troupe spawn --no-worktree --command' process`, cli.map((x) => x.wall), cpuNote(cli)));
  console.log(line(`baseline 'troupe --version' process`, versions.map((x) => x.wall), cpuNote(versions)));
  await sandboxCost(client);
  console.log(`live agents at the end: ${(await client.listAgents()).length}`);
} finally {
  killAgents();
  for (const pid of floorPids) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
  }
  await start([BIN, "daemon", "stop"], { env, stdout: "ignore" }).exited;
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
