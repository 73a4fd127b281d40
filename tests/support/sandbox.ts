import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { tmpdir } from "node:os";
import { isLive, type AgentStatus } from "../../src/protocol/status.ts";

export const ROOT = resolve(import.meta.dir, "../..");
/** The binary under test: dist/troupe (Bun), or the one TROUPE_BIN names (dist/troupe-deno: the same suites on Deno). */
/** The runtime a troupe process runs on, from its command line (a Deno one is `deno run ... main.js ...`). */
export const runtimeOfPid = (pid: number): "bun" | "deno" => (readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]!.endsWith("/deno") ? "deno" : "bun");
export const BIN = process.env.TROUPE_BIN ? resolve(ROOT, process.env.TROUPE_BIN) : join(ROOT, "dist", "troupe");
/** Which runtime BIN runs on, for the few checks that differ by runtime (how troupe runs itself again). */
export const BIN_RUNTIME: "bun" | "deno" = /deno/.test(BIN.slice(BIN.lastIndexOf("/"))) ? "deno" : "bun";

export const GIT_IDENTITY = {
  GIT_AUTHOR_NAME: "Troupe Test",
  GIT_AUTHOR_EMAIL: "test@troupe.invalid",
  GIT_COMMITTER_NAME: "Troupe Test",
  GIT_COMMITTER_EMAIL: "test@troupe.invalid",
};

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * A temp git repository with one commit, its own short socket path, and a runner for the
 * compiled binary (needed only once something runs). `close()` stops its daemon and every
 * agent it started. The one workspace fixture: unit tests that need a repo use it too.
 */
export class Sandbox {
  /** The runtime folder of every sandbox this test run made: the end-of-run leak check looks for processes still using one. */
  static readonly runtimes: string[] = [];
  readonly dir: string;
  readonly runtime: string;
  /** A folder an agent in its own worktree can write too (its sandbox opens the runtime folder): where a test's agents leave what it reads. */
  readonly exchange: string;
  readonly socket: string;
  readonly env: Record<string, string>;

  /** The temp folder removed at close: `dir` itself, or the one `folder` was made in. */
  private readonly base: string;

  /**
   * `folder`: the workspace is a folder of that name inside the temp one (a name with a `\\`, a space).
   * `parent`: where the temp one is made (the system's temp folder by default).
   * `sandboxed`: its agents run in their sandbox (the default), as outside the tests.
   */
  constructor(opts: { git?: boolean; folder?: string; parent?: string; sandboxed?: boolean } = {}) {
    if (opts.parent !== undefined) mkdirSync(opts.parent, { recursive: true, mode: 0o700 });
    this.base = realpathSync(mkdtempSync(join(opts.parent ?? tmpdir(), "troupe-ws-")));
    this.dir = opts.folder === undefined ? this.base : join(this.base, opts.folder);
    if (opts.folder !== undefined) mkdirSync(this.dir);
    // a socket path must stay short: its own folder right under /tmp
    this.runtime = mkdtempSync("/tmp/tr-");
    this.socket = join(this.runtime, "d.sock");
    this.exchange = join(this.runtime, "x");
    mkdirSync(this.exchange);
    Sandbox.runtimes.push(this.runtime);
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env)) {
      if (v !== undefined && !k.startsWith("TROUPE_")) env[k] = v;
    }
    // the user's state (accounts, trust records) and config (notify.command, permission rules) are the
    // sandbox's own: a test never reads or writes the real ones
    this.env = { ...env, ...GIT_IDENTITY, TROUPE_SOCKET: this.socket, TROUPE_WORKSPACE: this.dir, NO_COLOR: "1", XDG_STATE_HOME: join(this.runtime, "state"), XDG_CONFIG_HOME: join(this.runtime, "config") };
    // Agents' sandbox (src/sandbox/): they run in theirs, as by default outside the tests, with the
    // tests' exchange folder (this one) opened to them, as a person would open a shared folder, and
    // this checkout readable (the scripts and CLIs the tests' agents run live here; a checkout under
    // /tmp would be hidden by the sandbox's own /tmp).
    // `sandboxed: false` runs them unsandboxed (mode off), for the few suites that read from
    // outside what only an unsandboxed agent shows (its `$$` as the machine's pid). A test that
    // writes its own user config replaces this.
    mkdirSync(join(this.runtime, "config", "troupe"), { recursive: true });
    const sandbox = opts.sandboxed === false ? { mode: "off" } : { allowWrite: [this.runtime], allowRead: [ROOT] };
    writeFileSync(join(this.runtime, "config", "troupe", "config.json"), JSON.stringify({ sandbox }));
    if (opts.git !== false) {
      this.git("init", "-q", "-b", "main");
      writeFileSync(join(this.dir, "README.md"), "# test repo\n");
      this.git("add", ".");
      this.git("commit", "-q", "-m", "initial");
    }
  }

  git(...args: string[]): string {
    const r = Bun.spawnSync(["git", ...args], { cwd: this.dir, env: this.env });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
    return r.stdout.toString();
  }

  /** Whether the binary ran here, so a daemon may need stopping (a git-only sandbox needs no build). */
  private ran = false;

  private bin(): string {
    this.ran = true;
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'npm run build' (or 'npm run build:deno' for dist/troupe-deno) first`);
    return BIN;
  }

  /** Runs `troupe ARGS` to completion. */
  async run(args: string[], opts: { env?: Record<string, string>; cwd?: string } = {}): Promise<RunResult> {
    const p = Bun.spawn([this.bin(), ...args], { cwd: opts.cwd ?? this.dir, env: { ...this.env, ...opts.env }, stdout: "pipe", stderr: "pipe" });
    const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
    return { code, stdout, stderr };
  }

  /** Runs and parses stdout as JSON, failing loudly with stderr when the command failed. */
  async json<T = unknown>(args: string[], opts: { env?: Record<string, string> } = {}): Promise<T> {
    const r = await this.run(args, opts);
    if (r.code !== 0) throw new Error(`troupe ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
    return JSON.parse(r.stdout) as T;
  }

  /** Starts `troupe ARGS` and leaves it running. */
  start(args: string[], opts: { env?: Record<string, string> } = {}) {
    return Bun.spawn([this.bin(), ...args], { cwd: this.dir, env: { ...this.env, ...opts.env }, stdout: "pipe", stderr: "pipe" });
  }

  async daemonPid(): Promise<number | null> {
    const r = await this.run(["daemon", "status", "--json"]);
    const s = JSON.parse(r.stdout) as { running: boolean; pid?: number };
    return s.running ? s.pid ?? null : null;
  }

  /** The runtime the workspace's daemon runs on, from its command line (Deno's is `deno run ... daemon run`). */
  async daemonRuntime(): Promise<"bun" | "deno" | null> {
    const pid = await this.daemonPid();
    if (pid === null) return null;
    return runtimeOfPid(pid);
  }

  /** `kill -9` of the workspace's daemon, waiting until it is gone altogether (not only a zombie main thread whose other threads still hold the socket); its pid. */
  async killDaemon(): Promise<number> {
    const pid = await this.daemonPid();
    if (pid === null) throw new Error("no daemon to kill");
    process.kill(pid, "SIGKILL");
    await waitFor("the daemon to be gone", () => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    });
    return pid;
  }

  private readonly closers: (() => void)[] = [];

  /** Runs `fn` when the sandbox closes, before anything is stopped or deleted (a terminal's tmux server). */
  beforeClose(fn: () => void): void {
    this.closers.push(fn);
  }

  async close(): Promise<void> {
    for (const fn of this.closers.splice(0)) fn();
    // a daemon may have been started another way (the dashboard in tmux): its socket tells
    if (this.ran || existsSync(this.socket)) await this.stopAll();
    rmSync(this.runtime, { recursive: true, force: true });
    rmSync(this.base, { recursive: true, force: true });
  }

  private async stopAll(): Promise<void> {
    try {
      const agents = await this.json<{ id: string; status: AgentStatus }[]>(["ls", "--json"]);
      // at once: one after another, a sandbox with a dozen live agents outlasted the hook's 5 s on a loaded machine
      await Promise.all(agents.filter((a) => isLive(a.status)).map((a) => this.run(["stop", a.id])));
    } catch {
      // the daemon may be gone already
    }
    await this.run(["daemon", "stop"]);
  }
}

/** Polls `check` until it returns a value other than undefined/false, or throws at the deadline. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const v = await check();
      if (v !== undefined && v !== false) return v as T;
    } catch (err) {
      last = err;
    }
    await Bun.sleep(25);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${(last as Error).message}` : ""}`);
}
