/**
 * A program's first frame in tmux, as a person sees it: from starting the program in a new tmux
 * session until a text shows in its pane (polled with capture-pane), the CPU time the process had
 * used by then (all its threads, from /proc/<pid>/task/<tid>/schedstat: on a loaded machine the
 * wall time mostly measures the wait for a core), and its RSS a second later.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runSync } from "../lib/process.ts";
import { sleep } from "../../src/runtime/process.ts";

export interface FirstFrame {
  ms: number;
  cpu: number;
  rss: number;
}

export const median = (xs: number[]): number => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]! : NaN);

export const rssMB = (pid: number): number => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

/** CPU time in ms all threads of `pid` have run (schedstat: ns on a CPU). */
export const cpuMs = (pid: number): number => {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
  } catch {
    // gone meanwhile
  }
  return ns / 1e6;
};

export class TmuxFrames {
  constructor(private readonly runtime: string) {}

  tmux(...args: string[]): string {
    return runSync(["tmux", "-S", join(this.runtime, "tmux.sock"), ...args], { stdout: "pipe" }).stdout.toString();
  }

  /** Starts `command` in a `columns`x`rows` session, times it to `text`, then ends the session. */
  async firstFrame(command: string, text: string, columns = 120, rows = 40, deadlineMs = 20_000): Promise<FirstFrame | null> {
    const t0 = performance.now();
    this.tmux("new-session", "-d", "-s", "ff", "-x", String(columns), "-y", String(rows), command);
    const pid = Number(this.tmux("display-message", "-p", "-t", "ff", "#{pane_pid}").trim());
    let ms = 0;
    let cpu = 0;
    while (performance.now() - t0 < deadlineMs) {
      if (this.tmux("capture-pane", "-p", "-t", "ff").includes(text)) {
        ms = performance.now() - t0;
        cpu = pid ? cpuMs(pid) : 0;
        break;
      }
      await sleep(2);
    }
    await sleep(1000);
    const rss = pid ? rssMB(pid) : 0;
    this.tmux("kill-session", "-t", "ff");
    await sleep(200);
    return ms ? { ms, cpu, rss } : null;
  }

  close(): void {
    this.tmux("kill-server");
  }
}
