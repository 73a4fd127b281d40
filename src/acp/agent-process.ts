import { spawn, type ChildProcess } from "node:child_process";
import { Readable, Writable } from "node:stream";

export interface AgentProcess {
  child: ChildProcess;
  /** The agent's stdin and stdout, as the web streams the ACP SDK reads and writes. */
  input: WritableStream<Uint8Array>;
  output: ReadableStream<Uint8Array>;
  /** Its exit status (128 + the signal's number when a signal ended it). */
  exited: Promise<number>;
  /** Ends the agent's whole group: SIGTERM, then SIGKILL 5 s later (the watcher's job, as when the runner dies). */
  end(): void;
}

/**
 * The agent runs in a process group of its own (`setsid`), its tools' processes with it, under a
 * small sh that holds a pipe from the runner on fd 3. When that pipe closes, however the runner
 * ended (`kill -9` included: Bun and Deno cannot ask the kernel for a pdeathsig), or because the
 * runner closed it to end the agent (`stop`), the watcher sends the agent's group SIGTERM, then
 * SIGKILL when it is still there 5 s later. The group is the agent's alone, so a stop of the
 * session's group reaches the agent only through its runner, which forwards it. The agent gets
 * none of the watcher's fds; its stdin is the runner's pipe (a background job's would be /dev/null).
 */
const WATCHED = [
  `exec 4<&0; setsid "$@" <&4 4<&- 3<&- & a=$!; exec 4<&-`,
  `{ read -r _ <&3; kill -TERM -$a 2>/dev/null; n=0; while kill -0 -$a 2>/dev/null && [ $n -lt 5 ]; do sleep 1; n=$((n+1)); done; kill -KILL -$a 2>/dev/null; } & w=$!; exec 3<&-`,
  `wait $a; c=$?; kill -KILL $w 2>/dev/null; exit $c`,
].join("\n");

const SIGNALS: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };

/** Starts the agent CLI (`argv`) in `cwd`: stdio pipes to this runner, stderr to the session's. */
export function startAgent(argv: readonly string[], cwd: string, env: Record<string, string>): AgentProcess {
  const child = spawn("/bin/sh", ["-c", WATCHED, "sh", ...argv], { cwd, env, stdio: ["pipe", "pipe", "inherit", "pipe"] });
  const exited = new Promise<number>((resolve) => {
    child.once("error", () => resolve(127));
    child.once("exit", (code, signal) => resolve(code ?? 128 + (SIGNALS[signal ?? ""] ?? 1)));
  });
  return {
    child,
    input: Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
    output: Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    exited,
    end: () => (child.stdio[3] as { destroy?: () => void } | null)?.destroy?.(),
  };
}
