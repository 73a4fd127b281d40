/**
 * Processes started by scripts the same way under Bun and Deno (node:child_process), in the shape
 * Bun.spawn gave them: output as text, the exit as a promise.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";

type Stdio = "pipe" | "ignore" | "inherit";

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  stdin?: Stdio;
  /** "pipe" (the default) keeps it for `output()`. */
  stdout?: Stdio;
  stderr?: Stdio;
}

export interface Finished {
  /** -1 when it could not start or a signal ended it. */
  exitCode: number;
  stdout: string;
  stderr: string;
  pid: number;
}

/** Runs `argv` to its end, synchronously. */
export function runSync(argv: string[], opts: SpawnOptions = {}): Finished {
  const [cmd, ...args] = argv;
  const r = spawnSync(cmd!, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: [opts.stdin ?? "ignore", opts.stdout ?? "pipe", opts.stderr ?? "pipe"],
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  return { exitCode: r.status ?? -1, stdout: r.stdout ?? "", stderr: r.stderr ?? "", pid: r.pid ?? 0 };
}

export interface Running {
  pid: number;
  proc: ChildProcess;
  /** Its exit code once it ends (-1 for a signal or a failed start). */
  exited: Promise<number>;
  /** What it wrote to piped stdout and stderr, once it has ended. */
  output(): Promise<Finished>;
  kill(signal?: NodeJS.Signals | number): void;
}

/** Starts `argv` and leaves it running. */
export function start(argv: string[], opts: SpawnOptions = {}): Running {
  const [cmd, ...args] = argv;
  const proc = spawn(cmd!, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.stdin ?? "ignore", opts.stdout ?? "pipe", opts.stderr ?? "pipe"] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  proc.stdout?.on("data", (b: Buffer) => out.push(b));
  proc.stderr?.on("data", (b: Buffer) => err.push(b));
  // "close": ended, and its pipes drained
  const exited = new Promise<number>((resolve) => {
    proc.on("error", () => resolve(-1));
    proc.on("close", (code) => resolve(code ?? -1));
  });
  return {
    pid: proc.pid ?? 0,
    proc,
    exited,
    kill: (signal) => void proc.kill(signal),
    output: async () => {
      const exitCode = await exited;
      return { exitCode, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString(), pid: proc.pid ?? 0 };
    },
  };
}

/** Runs `argv` to its end. */
export function run(argv: string[], opts: SpawnOptions = {}): Promise<Finished> {
  return start(argv, opts).output();
}
