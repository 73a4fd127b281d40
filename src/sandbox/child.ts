import { spawn } from "node:child_process";
import { constants } from "node:os";

const FORWARDED = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

/**
 * Runs `argv` with this process's stdio and waits for it: what a process that only stands beside
 * the agent (the network proxy outside the sandbox, its bridge inside) does with the rest of the
 * session's command. A stop reaches the child (it is in the same process group, and the signal
 * is passed on too); resolves with its exit status, 128 + the signal's number when one ended it.
 */
export function runChild(argv: string[], env: Record<string, string>): Promise<number> {
  const [bin, ...args] = argv;
  if (!bin) return Promise.resolve(2);
  return new Promise((resolve) => {
    const child = spawn(bin, args, { stdio: "inherit", env });
    const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
    const handlers = FORWARDED.map((s) => [s, pass(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    const done = (code: number) => {
      for (const [s, h] of handlers) process.off(s, h);
      resolve(code);
    };
    child.once("error", (err) => {
      process.stderr.write(`troupe: could not start ${bin}: ${err.message}\n`);
      done(127);
    });
    child.once("exit", (code, signal) => done(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)));
  });
}
