import { existsSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import type { ChildProcess } from "node:child_process";
import { isProcessAlive } from "../../process-info.ts";
import { startExitWatcher, type ExitWatcher } from "../../runtime/exit-watch.ts";

/**
 * How often a process the kernel cannot report on (no pidfd: not Linux >= 5.3) is looked at.
 * `TROUPE_EXIT_POLL_MS` changes it (tests set it huge to show the kernel's report is enough).
 */
function pollMs(): number {
  const n = Number(process.env.TROUPE_EXIT_POLL_MS);
  return Number.isFinite(n) && n > 0 ? Math.min(n, 2 ** 31 - 1) : 1000;
}

interface Live {
  agentId: string;
  session: number;
  pid: number;
  pidStart: string | null;
  exitPath: string;
  /** Set for processes this daemon started; adopted ones (from an earlier daemon) are watched. */
  child: ChildProcess | null;
}

export function readExitFile(path: string): number | null {
  try {
    if (!existsSync(path)) return null;
    const n = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
    return Number.isFinite(n) ? n : null;
  } catch {
    return null;
  }
}

/** A shell's way to say how a process ended: its code, or 128 + the signal that killed it. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number | null {
  if (code !== null) return code;
  const n = signal ? constants.signals[signal] : undefined;
  return n === undefined ? null : 128 + n;
}

/**
 * Knows which agent processes are alive and reports each exit exactly once. Nothing polls
 * while the kernel can tell: a child of this daemon reports through its exit event, an adopted
 * one (started by an earlier daemon) through a pidfd. Only where neither works is it looked at
 * on a timer, which runs only while such a process lives.
 */
export class ExitTracker {
  private readonly live = new Map<string, Live>();
  /** Adopted processes no kernel notification covers. */
  private readonly polled = new Set<Live>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private exits: ExitWatcher | null = null;
  private stopped = false;

  constructor(private readonly onExit: (agentId: string, session: number, exitCode: number | null) => void) {}

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.exits?.close();
  }

  track(l: Live): void {
    this.live.set(l.agentId, l);
    if (l.child) {
      // the exit file is missing when the wrapper shell itself was killed: then its signal tells
      l.child.once("exit", (code, signal) => this.report(l, readExitFile(l.exitPath) ?? exitStatus(code, signal)));
      // it may have ended before the handler was attached
      if (l.child.exitCode !== null || l.child.signalCode !== null) this.report(l, readExitFile(l.exitPath) ?? childStatus(l.child));
      return;
    }
    if (this.stopped) return;
    this.exits ??= startExitWatcher((pid) => this.exited(pid));
    const how = this.exits.watch(l.pid);
    // the pidfd may name a newer process that took a reused pid: the start time tells
    if (how === "gone" || !isProcessAlive(l.pid, l.pidStart)) this.report(l, readExitFile(l.exitPath));
    else if (how === "unsupported") this.poll(l);
  }

  isLive(agentId: string): boolean {
    return this.live.has(agentId);
  }

  private report(l: Live, exitCode: number | null): void {
    this.polled.delete(l);
    if (this.polled.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
    if (this.live.get(l.agentId) !== l) return;
    this.live.delete(l.agentId);
    this.onExit(l.agentId, l.session, exitCode);
  }

  /** The kernel says `pid` ended (or its watcher failed: then what still lives is polled). */
  private exited(pid: number): void {
    for (const l of this.live.values()) {
      if (l.child || l.pid !== pid) continue;
      if (isProcessAlive(l.pid, l.pidStart)) this.poll(l);
      else this.report(l, readExitFile(l.exitPath));
    }
  }

  private poll(l: Live): void {
    this.polled.add(l);
    this.timer ??= setInterval(() => {
      for (const p of this.polled) if (!isProcessAlive(p.pid, p.pidStart)) this.report(p, readExitFile(p.exitPath));
    }, pollMs());
  }
}

const childStatus = (c: ChildProcess): number | null => exitStatus(c.exitCode, c.signalCode);
