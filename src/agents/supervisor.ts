import { existsSync, readFileSync } from "node:fs";
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
    l.child?.once("exit", (code, signal) => {
      const exit = code ?? (signal ? 128 : null);
      this.report(l, readExitFile(l.exitPath) ?? exit);
    });
    // it may have ended before the handler was attached
    if (l.child && l.child.exitCode !== null) this.report(l, readExitFile(l.exitPath) ?? l.child.exitCode);
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
      if (!isProcessAlive(l.pid, l.pidStart)) this.report(l, readExitFile(l.exitPath) ?? l.child?.exitCode ?? null);
    }
  }
}
