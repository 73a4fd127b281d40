/**
 * What troupe needs from the JavaScript runtime, and nothing more. Everything else in src/ is
 * portable (node:fs, node:child_process, fetch, web streams). Each adapter folder (bun/, deno/)
 * implements every type here; the facade modules beside this file (sqlite.ts, serve.ts, ...)
 * import `#runtime/<name>.ts`, which package.json's "imports" resolves by the running runtime's
 * own condition ("bun" or "deno"), as Hono's `hono/bun` and `hono/deno` sit over one
 * runtime-free core: nothing of one runtime is in the other's module graph.
 * tests/runtime/contract.test.ts holds the contract's own tests, which `bun test` and
 * `deno test` both run.
 */

// ---- sqlite: the subset of a synchronous SQLite binding that src/store uses

export type SqlValue = string | number | bigint | boolean | null | Uint8Array;

export interface Statement {
  /** The first row, or null. */
  get(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): unknown[];
  run(...params: SqlValue[]): { changes: number };
  /** Rows one at a time: a reader may stop early without materialising the rest. */
  iterate(...params: SqlValue[]): IterableIterator<unknown>;
}

export interface Database {
  /** A prepared statement, cached by its SQL text (the store prepares in hot paths). */
  query(sql: string): Statement;
  exec(sql: string): void;
  /** `fn` wrapped in BEGIN/COMMIT (ROLLBACK when it throws). */
  transaction<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R;
  close(): void;
}

/** Opens (creating) a database with `?N` and `?` parameters bound strictly. */
export type OpenDatabase = (path: string) => Database;

// ---- WAL checkpoints on a thread (and a connection) of their own

/** `PRAGMA wal_checkpoint`'s answer: frames in the WAL, and how many of them are now in the database. */
export interface CheckpointResult {
  busy: boolean;
  log: number;
  checkpointed: number;
}

export interface Checkpointer {
  /**
   * A PASSIVE checkpoint of the database, run on another thread: copying and syncing the WAL
   * never holds the caller's event loop, and writers on other connections go on meanwhile.
   * One at a time: the caller waits for each before asking again.
   */
  checkpoint(): Promise<CheckpointResult>;
  /** Closes its connection and ends the thread; checkpoints asked for afterwards are refused. */
  close(): void;
}

/** Starts the thread lazily: nothing runs until the first checkpoint. */
export type StartCheckpointer = (path: string) => Checkpointer;

// ---- HTTP/1.1 server on a Unix socket, and a client of one

interface UnixServeOptions {
  socket: string;
  fetch(req: Request): Promise<Response> | Response;
  /** Called when `fetch` throws outside its own handling; must answer. */
  error(err: Error): Response;
}

export interface UnixServer {
  /** Stops listening; with `closeActive`, also cuts requests in flight. */
  stop(closeActive: boolean): void;
}

/** Listens on `socket` (the file must not exist); the connection idle timeout is off. */
export type ServeUnix = (opts: UnixServeOptions) => UnixServer;

// ---- HTTP/1.1 server on TCP (the web page's, src/web/)

/** What a TCP request's handler knows of its connection. */
export interface TcpConnection {
  /** The peer's address (IPv4 or IPv6, no port). */
  remote: string;
  /** Lifts the idle timeout for this request's response: an event stream that is quiet for minutes. */
  keepOpen(): void;
}

interface TcpServeOptions {
  hostname: string;
  /** 0: any free port (the server's `port` says which). */
  port: number;
  fetch(req: Request, conn: TcpConnection): Promise<Response> | Response;
  /** Called when `fetch` throws outside its own handling; must answer. */
  error(err: Error): Response;
}

interface TcpServer {
  readonly port: number;
  /** Stops listening; with `closeActive`, also cuts requests in flight. */
  stop(closeActive: boolean): void;
}

/**
 * Listens on `hostname:port`. A connection idle for `TCP_IDLE_SECONDS` (a slow or silent
 * client, one of a thousand kept open) is closed, but for a response kept open.
 */
export type ServeTcp = (opts: TcpServeOptions) => TcpServer;

export const TCP_IDLE_SECONDS = 30;

/** `fetch` over a Unix socket (the URL's host is ignored). */
export type UnixFetch = (socket: string, url: string, init?: RequestInit) => Promise<Response>;

// ---- an exclusive advisory lock the kernel drops when its holder dies

export interface HeldLock {
  /** Lets go of the lock (closes the file that holds it). */
  release(): void;
}

/**
 * flock(LOCK_EX | LOCK_NB) on `path` (created with mode 0600, its content untouched): the lock
 * while this process holds it, or null when another open of the file holds it. A path, not a
 * file descriptor: Deno's own file API hands out none. Both adapters take the same flock(2), so
 * a Bun and a Deno troupe exclude each other.
 */
export type TryLock = (path: string) => HeldLock | null;

// ---- giving back the disk blocks of a byte range without moving anything after it

/**
 * Frees the blocks of bytes [from, to) of the file at `path` (a hole: size and offsets
 * unchanged, so a writer appending meanwhile loses nothing). False where the system or file
 * system cannot; throws (ENOENT...) where the file cannot be opened.
 */
export type PunchHole = (path: string, from: number, to: number) => boolean;

// ---- changes to a folder's entries (what fs.watch gives, without opening anything)

export type DirEvent = "rename" | "change";

export interface DirWatcher {
  close(): void;
}

/**
 * Calls `onEvent` for each change to an entry of `dir` (not below it), with the entry's name:
 * "rename" when one is created, deleted or moved (the folder itself too, by its own name),
 * "change" when one is written; `name` null when the system lost events (look at everything).
 * `onError` once if the watch ends by itself (the folder deleted or moved away). Throws when `dir`
 * cannot be watched (missing). Never opens a watched entry: a FIFO blocks whoever opens it (Deno's
 * fs.watch does, and hangs the process). Keeps no process alive by itself.
 */
export type WatchDir = (dir: string, onEvent: (event: DirEvent, name: string | null) => void, onError: (err: Error) => void) => DirWatcher;

// ---- process exits as kernel events (nothing polls)

/** How `watch` went: the exit will be reported, the process is already gone, or this system cannot tell. */
type ExitWatch = "watching" | "gone" | "unsupported";

export interface ExitWatcher {
  /**
   * Reports, once, when `pid` ends (any process of this user, not only a child), without waking
   * anything meanwhile. "gone": no such process now (nothing will be reported). "unsupported":
   * no kernel notification here (not Linux >= 5.3); the caller must look by itself.
   */
  watch(pid: number): ExitWatch;
  /** Stops the watching thread and closes every handle; nothing is reported afterwards. */
  close(): void;
}

/** `onExit(pid)` runs on this thread's loop. The watching thread starts with the first watch. */
export type StartExitWatcher = (onExit: (pid: number) => void) => ExitWatcher;

// ---- writing the CLI's output to its own descriptors

/**
 * Writes `bytes` to descriptor 1 or 2 at once, as much as it takes (a count, possibly short);
 * throws an error whose `code` says why (EAGAIN: a non-blocking descriptor is full; EPIPE: the
 * reader is gone). Not through node:fs on Deno, where loading it costs ~20 ms of each start.
 */
export type WriteStdio = (fd: 1 | 2, bytes: Uint8Array) => number;

// ---- this process's command line, environment and end

/**
 * What a command reads of its own process. On Deno, Node's `process` global is built at its first
 * touch, ~8 ms of a start (docs/performance.md, "Deno"): the agent-side commands (`troupe answer`,
 * `ask`, `listen`, `signal`) read all they need through this and never touch it.
 */
export interface Program {
  /** The command line after the runtime and the script: what `troupe` itself was given. */
  args(): string[];
  env(name: string): string | undefined;
  cwd(): string;
  pid(): number;
  /** The system and CPU as Node names them: `linux-x64`, `darwin-arm64`. */
  platform(): string;
  /** The user's id; undefined where the system has none. */
  uid(): number | undefined;
  /** Ends the process with `code`, running `process.on("exit")` listeners wherever one was registered. */
  exit(code: number): never;
}

// ---- process and text helpers

/** Which runtime runs this troupe (`troupe --version` names it). */
export interface RuntimeInfo {
  name: "bun" | "deno" | "browser";
  version: string;
}

export interface ProcessRuntime {
  info: RuntimeInfo;
  /** The absolute path of `bin` on `PATH`, or null. */
  which(bin: string, PATH: string): string | null;
  /** A full, synchronous garbage collection (the dashboard's RSS guard). */
  gc(): void;
  /** A collection of only what was allocated since the last one: cheap, for garbage made per frame. */
  gcYoung(): void;
  /**
   * Gives a settled process's memory back: a full collection that also drops compiled code
   * (compiled again when next run), then freed pages returned to the OS. Runs once the current
   * task returns to the event loop; for after a burst of work, never on a timer of its own.
   */
  shrink(): void;
  /**
   * The argv that runs this same troupe again: the compiled executable alone, or the runtime with
   * its flags and the entry script (`bun src/main.ts`, `deno run -A ... troupe.js`); under Deno
   * `process.execPath` is `deno` itself, so only the adapter knows the rest.
   */
  selfCommand(): string[];
  /**
   * Makes this process read its terminal again after a child had it (the dashboard's `t` and
   * `e`: stdin paused meanwhile, Ink's listener back): where the runtime does not by itself.
   */
  reclaimStdin(): void;
  /**
   * Variables for a long-lived process this one starts (the daemon) so the runtime itself does not
   * wake while nothing happens; read by the runtime only when that process starts.
   */
  quietEnv(): Record<string, string>;
  /**
   * Variables for a process that runs much code once at its start and then a little of it for
   * hours (the dashboard): the JIT waits longer before compiling, so the start does not pay for
   * compiling code that ran there only; read by the runtime only when that process starts.
   */
  startEnv(): Record<string, string>;
  /**
   * Replaces this process's program with `argv` under `env` (execve: the same pid, terminal and
   * open files); returns only where it could not (false), the process unchanged.
   */
  exec(argv: string[], env: Record<string, string>): boolean;
}

/** Terminal columns of a string (East Asian wide characters and emoji count two). */
export type StringWidth = (s: string) => number;

/** SHA-256 of a UTF-8 string, as lowercase hex (node:crypto costs ~3 ms to load: a client start needs only this). */
export type Sha256Hex = (text: string) => string;

// ---- the single-binary build (used by scripts/build.ts, never at run time)

export interface CompileOptions {
  entry: string;
  outfile: string;
  /** Global identifiers replaced at build time (values are JS source). */
  define: Record<string, string>;
  /** Ink as published, without patches/ink+8.0.0.patch: a benchmark's floor, never troupe. */
  stockInk?: boolean;
  /**
   * Build for another platform: the runtime's name for it (`bun-linux-arm64`) and that platform's
   * runtime executable, which the program is appended to (scripts/dist.ts fetches them).
   */
  cross?: { target: string; runtime: string };
}

type BuildResult = { ok: true } | { ok: false; errors: string[] };

export type CompileBinary = (opts: CompileOptions) => Promise<BuildResult>;

interface BundleOptions {
  entry: string;
  /** Written: `main.js` (the entry) and the chunks it loads lazily. */
  outdir: string;
  define: Record<string, string>;
  /** Export conditions of the runtime that will run it (["deno"]): package.json "imports" picks its adapter. */
  conditions: string[];
}

/** The program as ES modules for another runtime: every package inlined, node: built-ins left as imports. */
export type BundleProgram = (opts: BundleOptions) => Promise<BuildResult>;

/** The web page's bundle (src/web/page/): its files by name, the entry `main.js` among them. */
type PageBuild = { ok: true; files: Record<string, string> } | { ok: false; errors: string[] };

/** The web page for the browser (the `browser` condition: #runtime/ resolves to src/runtime/browser/), minified, in memory. */
export type BundlePage = (entry: string) => Promise<PageBuild>;
