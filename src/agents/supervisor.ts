import { existsSync, readFileSync } from "node:fs";
import { constants } from "node:os";
import type { ChildProcess } from "node:child_process";
import { isProcessAlive } from "../process-info.ts";

const POLL_MS = 250;

interface Live {
  agentId: string;
  session: number;
  pid: number;
  pidStart: string | null;
  exitPath: string;
  /** Set for processes this daemon started; adopted ones (from an earlier daemon) are polled. */
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

/** Knows which agent processes are alive and reports each exit exactly once. */
export class Supervisor {
  private readonly live = new Map<string, Live>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly onExit: (agentId: string, session: number, exitCode: number | null) => void) {}

  start(): void {
    this.timer = setInterval(() => this.poll(), POLL_MS);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  track(l: Live): void {
    this.live.set(l.agentId, l);
    // the exit file is missing when the wrapper shell itself was killed: then its signal tells
    l.child?.once("exit", (code, signal) => this.report(l, readExitFile(l.exitPath) ?? exitStatus(code, signal)));
    // it may have ended before the handler was attached
    if (l.child && (l.child.exitCode !== null || l.child.signalCode !== null)) this.report(l, readExitFile(l.exitPath) ?? childStatus(l.child));
  }

  isLive(agentId: string): boolean {
    return this.live.has(agentId);
  }

  private report(l: Live, exitCode: number | null): void {
    if (this.live.get(l.agentId) !== l) return;
    this.live.delete(l.agentId);
    this.onExit(l.agentId, l.session, exitCode);
  }

  /** Adopted processes are polled; children too, as a net under their exit event. */
  private poll(): void {
    for (const l of this.live.values()) {
      if (!isProcessAlive(l.pid, l.pidStart)) this.report(l, readExitFile(l.exitPath) ?? (l.child ? childStatus(l.child) : null));
    }
  }
}

const childStatus = (c: ChildProcess): number | null => exitStatus(c.exitCode, c.signalCode);
