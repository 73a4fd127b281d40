import { existsSync, readdirSync, readFileSync, renameSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";
import { readInputLine, type InputLine } from "../../providers/acp/lines.ts";

/** How often the folder is looked at again when no change was seen (a missed watch event costs at most this; a turn's end looks at once). */
const RESCAN_MS = 5000;

/**
 * The session's input folder, as the daemon writes it (src/agents/sessions/input-stream.ts): a
 * line is a file `NNN.line`, the stream ends with a file `close`. The runner is its own feeder:
 * it claims a line by renaming it into `sent/` when it gives it to the agent, so a line is taken
 * once, by it or by the agent's own `troupe listen` (which claims the same way), never by both;
 * one that waits in the folder is not yet taken.
 */
export class Inbox {
  private watcher: FSWatcher | null = null;
  private wakeUp: (() => void) | null = null;

  constructor(private readonly dir: string) {
    try {
      this.watcher = watch(dir, () => this.wakeUp?.());
    } catch {
      // no watch (the folder went, too many watches): the rescan still finds what comes
    }
  }

  /** Every line waiting, oldest first, each claimed (moved to `sent/`); a line someone else claimed first is not ours. */
  take(): InputLine[] {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((n) => n.endsWith(".line")).sort();
    } catch {
      return [];
    }
    const lines: InputLine[] = [];
    for (const name of names) {
      const sent = join(this.dir, "sent", name);
      try {
        renameSync(join(this.dir, name), sent);
      } catch {
        continue;
      }
      const line = readInputLine(readFileSync(sent, "utf8").trim());
      if (line) lines.push(line);
    }
    return lines;
  }

  /** True once the daemon closed the stream (or the folder is gone: the session is over for it). */
  closed(): boolean {
    return existsSync(join(this.dir, "close")) || !existsSync(this.dir);
  }

  /** Resolves at the next change in the folder, or after a rescan's interval. */
  changed(): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, RESCAN_MS);
      const self = this;
      function done() {
        clearTimeout(t);
        self.wakeUp = null;
        resolve();
      }
      this.wakeUp = done;
    });
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
    this.wakeUp?.();
  }
}
