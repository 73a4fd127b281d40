/**
 * The dashboard over remotes (issue 21), each figure beside its local-only baseline in the same run:
 *  - first frame: `troupe` (this workspace) against `troupe --remote box` (plus a host workspace
 *    over ssh to a real sshd on 127.0.0.1, tests/support/sshd.ts), alternating; the frame counted
 *    is the one that shows this workspace's agents (the remote's header still connecting), and the
 *    one that shows the remote's agents too (over a new ssh link);
 *  - idle CPU with two remote sources open (two links to the host), agents over a minute old:
 *    the dashboard, its ssh clients and the host's proxies over a window, against a local-only
 *    dashboard over the same window; the links add their heartbeat (a PING every 2 s each) and
 *    ssh's keep-alive.
 * Usage: bun scripts/bench/remote-dashboard.ts [runs=7] [windowS=60]   (TROUPE_BIN: another build)
 */
import { processesUnder } from "../../tests/support/sshd.ts";
import { remoteScene } from "./remote-scene.ts";
import { BIN, load, processCpuMs } from "./floor.ts";
import { TmuxFrames, median } from "./tmux-frame.ts";
import { runtime as js, sleep } from "../../src/runtime/process.ts";
import { run, runSync } from "../lib/process.ts";

const runs = Number(process.argv[2] ?? 7);
const windowS = Number(process.argv[3] ?? 60);

const scene = await remoteScene();
const { dir, host, runtime, socket, env, hostEnv, sshd } = scene;
const frames = new TmuxFrames(runtime);
/** The dashboard command as a tmux pane runs it, with this bench's environment. */
const dashboard = (args: string) => `env ${Object.entries({ TROUPE_WORKSPACE: dir, TROUPE_SOCKET: socket, XDG_CONFIG_HOME: env.XDG_CONFIG_HOME!, XDG_STATE_HOME: env.XDG_STATE_HOME!, TROUPE_SSH_COMMAND: sshd.sshCommand }).map(([k, v]) => `${k}='${v}'`).join(" ")} ${BIN} ${args}`;
/** CPU of a process so far, its exited threads included (10 ms ticks); 0 once it is gone. */
const cpuOf = (pid: number): number => {
  try {
    return processCpuMs(pid);
  } catch {
    return 0;
  }
};
const sumCpu = (ps: number[]) => ps.reduce((s, p) => s + cpuOf(p), 0);

try {
  console.log(`machine: ${navigator.hardwareConcurrency} cores, ${js.name} ${js.version}, ${load()} at the start`);
  await run([BIN, "daemon", "start"], { env: hostEnv });
  await run([BIN, "daemon", "start"], { env });
  const started = Date.now();
  await run([BIN, "spawn", "--no-worktree", "--name", "near", "--command", "sleep 3600"], { env });
  await run([BIN, "spawn", "--no-worktree", "--name", "far", "--command", "sleep 3600"], { env: hostEnv });
  for (const name of ["box", "box2"]) {
    const add = runSync([BIN, "remote", "add", name, `127.0.0.1:${sshd.port}`, "--path", host, "--troupe", BIN], { env, stdout: "pipe" });
    if (add.exitCode !== 0) throw new Error(add.stderr.toString());
  }

  const only: { ms: number; cpu: number }[] = [];
  const nearFirst: { ms: number; cpu: number }[] = [];
  const both: { ms: number; cpu: number }[] = [];
  for (let i = 0; i < runs + 1; i++) {
    const a = await frames.firstFrame(dashboard(""), "near", 160, 40);
    // the same dashboard twice: once to its first frame with this workspace's agents, once to the host's
    const n = await frames.firstFrame(dashboard("--remote box"), "near", 160, 40);
    const b = await frames.firstFrame(dashboard("--remote box"), "far", 160, 40);
    if (!a || !n || !b) throw new Error("a dashboard showed no frame within 20 s");
    if (i === 0) continue; // warms the page cache and the host's first ssh login
    only.push(a);
    nearFirst.push(n);
    both.push(b);
  }
  const show = (label: string, xs: { ms: number; cpu: number }[], extra = "") => console.log(`${label}: median ${median(xs.map((x) => x.ms)).toFixed(0)} ms to the frame, ${median(xs.map((x) => x.cpu)).toFixed(0)} ms of its CPU${extra}`);
  show("first frame, troupe (this workspace)", only);
  show("first frame, troupe --remote box, this workspace's agents (the host's still connecting)", nearFirst, `; /local ${(median(nearFirst.map((x) => x.ms)) / median(only.map((x) => x.ms))).toFixed(2)}x wall`);
  show("first frame, troupe --remote box, the host's agents too (over a new ssh link)", both, `; /local ${(median(both.map((x) => x.ms)) / median(only.map((x) => x.ms))).toFixed(2)}x wall, ${(median(both.map((x) => x.cpu)) / median(only.map((x) => x.cpu))).toFixed(2)}x CPU`);

  // idle: agents over a minute old (their clocks then move once a minute), each dashboard alone
  const wait = 65_000 - (Date.now() - started);
  if (wait > 0) await sleep(wait);
  for (const [label, args, shows] of [["local only", "", "near"], ["two remotes (box, box2) and this workspace", "--remote box --remote box2", "far"]] as const) {
    frames.tmux("new-session", "-d", "-s", "idle", "-x", "160", "-y", "40", dashboard(args));
    const pid = Number(frames.tmux("display-message", "-p", "-t", "idle", "#{pane_pid}").trim());
    for (let t = 0; t < 200 && !frames.tmux("capture-pane", "-p", "-t", "idle").includes(shows); t++) await sleep(100);
    await sleep(5000); // past the start's settling (versions of the agent CLIs, a collection)
    // the link's processes: the dashboard's ssh clients (and the shells TROUPE_SSH_COMMAND runs them in), sshd's sessions and the host's proxies
    const linkPids = [...processesUnder(pid, "ssh"), ...processesUnder(sshd.pid!)];
    const before = { dash: cpuOf(pid), links: sumCpu(linkPids) };
    await sleep(windowS * 1000);
    const dash = cpuOf(pid) - before.dash;
    const link = sumCpu(linkPids) - before.links;
    const pctOf = (msUsed: number) => ((100 * msUsed) / (windowS * 1000)).toFixed(3);
    console.log(`idle ${windowS} s, ${label}: dashboard ${pctOf(dash)} % of a core${args ? `, ssh clients + host proxies (${linkPids.length} processes) ${pctOf(link)} %` : ""}`);
    frames.tmux("kill-session", "-t", "idle");
    await sleep(300);
  }
  console.log(`${load()} at the end`);
} finally {
  frames.close();
  scene.close({ here: ["near"], host: ["far"] });
}
