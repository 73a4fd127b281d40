/**
 * The compiled dashboard's memory, as a person runs it: `dist/troupe` in a 160x50 tmux window
 * on a workspace with 100 agents, one of them streaming 100,000 lines at ~5,000 lines/s.
 * Samples the dashboard process's RSS every second while the output streams and after it ends.
 * Prints figures; fails on nothing. Needs tmux.
 *   npm run build && bun scripts/bench/dashboard-rss.ts
 * TROUPE_BIN=path measures another build (an older one, to compare).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadavg, tmpdir } from "node:os";

const BIN = process.env.TROUPE_BIN ?? resolve(import.meta.dir, "../../dist/troupe");
const LINES = 100_000;
const dir = mkdtempSync(join(tmpdir(), "troupe-rss-"));
const runtime = mkdtempSync("/tmp/tq-");
const env = { ...process.env, TROUPE_WORKSPACE: dir, TROUPE_SOCKET: join(runtime, "d.sock") } as Record<string, string>;
const tmux = (...args: string[]) => Bun.spawnSync(["tmux", "-S", join(runtime, "tmux.sock"), ...args], { env });
const troupe = (args: string[]) => Bun.spawnSync([BIN, ...args], { env, stdout: "pipe", stderr: "pipe" });
const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;

try {
  for (let i = 1; i < 100; i++) troupe(["spawn", "--no-worktree", "--name", `idle-${i}`, "--command", "sleep 600"]);
  const gate = join(dir, "go");
  const stream = `while [ ! -e ${gate} ]; do sleep 0.05; done; i=0; while [ $i -lt ${LINES} ]; do j=0; while [ $j -lt 500 ]; do echo "line $((i+j)) of the streaming agent: some text to make it look like output"; j=$((j+1)); done; i=$((i+500)); sleep 0.1; done; troupe signal done`;
  troupe(["spawn", "--no-worktree", "--name", "streamer", "--command", stream]);
  tmux("new-session", "-d", "-s", "rss", "-x", "160", "-y", "50", `exec '${BIN}'`);
  let pid = 0;
  for (let t = 0; t < 100 && !pid; t++) {
    await Bun.sleep(100);
    pid = Number(tmux("display-message", "-p", "-t", "rss", "#{pane_pid}").stdout.toString().trim()) || 0;
  }
  await Bun.sleep(1500);
  const start = rssMB(pid);
  await Bun.write(gate, "");
  const streaming: number[] = [];
  for (;;) {
    await Bun.sleep(1000);
    streaming.push(rssMB(pid));
    const a = JSON.parse(troupe(["ls", "--json"]).stdout.toString()).find((x: { name: string }) => x.name === "streamer");
    if (a.status !== "running" || streaming.length > 120) break;
  }
  const after: number[] = [];
  for (let i = 0; i < 5; i++) {
    await Bun.sleep(1000);
    after.push(rssMB(pid));
  }
  const sorted = [...streaming].sort((x, y) => x - y);
  const med = sorted[Math.floor(sorted.length / 2)]!;
  console.log(`compiled dashboard, 100 agents, one streaming ${LINES.toLocaleString("en")} lines at ~5,000 lines/s, 160x50 (tmux); load ${loadavg()[0]!.toFixed(2)} (1-min avg)`);
  console.log(`  RSS at start:                 ${start.toFixed(0)} MB`);
  console.log(`  RSS while streaming (${streaming.length} s):   median ${med.toFixed(0)} MB, max ${Math.max(...streaming).toFixed(0)} MB, min ${Math.min(...streaming).toFixed(0)} MB`);
  console.log(`  RSS after the stream ended:   ${after.map((x) => x.toFixed(0)).join(" ")} MB`);
} finally {
  tmux("kill-server");
  // agents outlive the daemon by design: end this run's ones by their process groups
  for (const a of JSON.parse(troupe(["ls", "--json"]).stdout.toString() || "[]") as { pid: number | null }[]) {
    if (a.pid) {
      try {
        process.kill(-a.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  }
  troupe(["daemon", "stop"]);
  rmSync(dir, { recursive: true, force: true });
  rmSync(runtime, { recursive: true, force: true });
}
