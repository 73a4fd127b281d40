import { appendFileSync } from "node:fs";

/** The daemon's diagnostics go to a file in the workspace, never to a terminal. */
export class Logger {
  constructor(private readonly path: string) {}

  private write(level: string, msg: string, extra?: unknown): void {
    const tail = extra === undefined ? "" : ` ${extra instanceof Error ? extra.stack ?? extra.message : JSON.stringify(extra)}`;
    try {
      // the mode explicitly: Deno's appendFileSync sets the file to its mode argument (0666 by
      // default) at every call, umask or not, where Node and Bun apply it only to a new file
      appendFileSync(this.path, `${new Date().toISOString()} ${level} ${msg}${tail}\n`, { mode: 0o600 });
    } catch {
      // a full disk must not take the daemon down with it
    }
  }
  info(msg: string, extra?: unknown) {
    this.write("info", msg, extra);
  }
  warn(msg: string, extra?: unknown) {
    this.write("warn", msg, extra);
  }
  error(msg: string, extra?: unknown) {
    this.write("error", msg, extra);
  }
}
