/** The compiled dashboard in a real terminal: a tmux server of the test's own, keys in with send-keys, the screen back with capture-pane. */
import { join } from "node:path";
import { BIN, type Sandbox, waitFor } from "./sandbox.ts";
import { needed } from "./tools.ts";

export const HAVE_TMUX = needed("tmux", Bun.spawnSync(["sh", "-c", "command -v tmux"]).exitCode === 0);

/** The dashboard's agent list as shown (the left pane's lines, from its title down, blank ones left out). */
export function listLines(screen: string): string[] {
  const lines = screen.split("\n");
  const from = lines.findIndex((l) => l.includes("Agents ("));
  return lines.slice(from + 1).map((l) => l.split("│")[0]!.trimEnd()).filter((l) => l.trim() !== "");
}

/** One tmux server of our own (its socket in the sandbox), one window running a shell. */
export class Terminal {
  readonly sock: string;
  /** The server's pid: killed directly when `kill-server` cannot reach it (its socket gone). */
  private readonly serverPid: number;
  private closed = false;
  constructor(private readonly sb: Sandbox, cols = 120, rows = 36) {
    this.sock = join(sb.runtime, "tmux.sock");
    this.tmux("new-session", "-d", "-s", "t", "-x", String(cols), "-y", String(rows), "sh");
    // the sandbox closes it before deleting the folder that holds its socket, if the test did not
    sb.beforeClose(() => this.close());
    this.tmux("set-option", "-t", "t", "status", "off");
    this.serverPid = Number(this.tmux("display-message", "-p", "#{pid}").trim());
  }

  tmux(...args: string[]): string {
    const r = Bun.spawnSync(["tmux", "-S", this.sock, ...args], { env: { ...this.sb.env, TERM: "xterm-256color" }, cwd: this.sb.dir });
    if (r.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  }

  screen(): string {
    return this.tmux("capture-pane", "-p", "-t", "t");
  }

  /** tmux key names (Enter, Escape, Tab, C-j, PageUp...) or plain letters. */
  keys(...keys: string[]): void {
    this.tmux("send-keys", "-t", "t", ...keys);
  }

  type(text: string): void {
    this.tmux("send-keys", "-t", "t", "-l", text);
  }

  format(f: string): string {
    return this.tmux("display-message", "-p", "-t", "t", f).trim();
  }

  resize(cols: number, rows: number): void {
    this.tmux("resize-window", "-t", "t", "-x", String(cols), "-y", String(rows));
  }

  async waitFor(text: string | RegExp, ms = 15_000): Promise<string> {
    let last = "";
    try {
      return await waitFor(
        `${String(text)} on screen`,
        () => {
          last = this.screen();
          return (typeof text === "string" ? last.includes(text) : text.test(last)) ? last : undefined;
        },
        ms,
      );
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- screen ---\n${last}`);
    }
  }

  async waitForNot(text: string | RegExp, ms = 15_000): Promise<string> {
    return waitFor(`${String(text)} gone`, () => {
      const s = this.screen();
      return (typeof text === "string" ? s.includes(text) : text.test(s)) ? undefined : s;
    }, ms);
  }

  /** Starts the dashboard (of `bin`, BIN by default) in the shell and waits for its first frame. */
  async openDashboard(bin = BIN): Promise<void> {
    this.type(bin);
    this.keys("Enter");
    await this.waitFor(/Agents \(\d+/);
  }

  /** Kills the server and what runs in it (the dashboard), waiting until the server is gone. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.tmux("kill-server");
    } catch {
      // its socket is gone: the pid below still reaches it
    }
    const deadline = Date.now() + 5_000;
    while (alive(this.serverPid) && Date.now() < deadline) Bun.sleepSync(20);
    if (alive(this.serverPid)) process.kill(this.serverPid, "SIGKILL");
  }
}

function alive(pid: number): boolean {
  if (!(pid > 0)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
