/**
 * An ACP session as the daemon runs one, over the bench's own agent: a workspace with its daemon
 * (harness.ts BenchDaemon), and a `gemini` on the agents' PATH that is acp-agent.ts, so a spawn of
 * the gemini provider (driven over ACP) runs `troupe acp-run ... -- gemini --acp` under the daemon
 * with that agent in place of Gemini CLI: troupe's whole path, no model. What the agent records
 * is read back from its file.
 */
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import { sleep } from "../../src/runtime/process.ts";
import { unixFetch } from "../../src/runtime/serve.ts";
import { BIN, bareServer, runtimeOf } from "./floor.ts";
import { BenchDaemon } from "./harness.ts";

const AGENT = join(import.meta.dirname, "acp-agent.ts");

export async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 60_000, every = 5): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(every);
  }
}

/** `performance.timeOrigin + performance.now()`: ms, as acp-agent.ts records them (one clock for both processes, to well under a millisecond). */
export const now = (): number => performance.timeOrigin + performance.now();

export class AcpBench {
  readonly daemon = new BenchDaemon();
  private readonly bin = mkdtempSync(join(tmpdir(), "troupe-acp-bin-"));
  private n = 0;

  start(): void {
    const q = (s: string) => `'${s.replace(/'/g, "'\\''")}'`;
    writeFileSync(join(this.bin, "gemini"), `#!/bin/sh\nexec ${q(process.execPath)} ${q(AGENT)}\n`);
    chmodSync(join(this.bin, "gemini"), 0o755);
    this.daemon.start();
  }

  /** A gemini agent (no worktree) whose session runs acp-agent.ts with `env` (BENCH_ACP_*); the file it records to. */
  async spawn(env: Record<string, string>, permissions: "ask" | "skip"): Promise<{ agent: Agent; record: string }> {
    const name = `acp-${++this.n}`;
    const record = join(this.daemon.dir, `${name}.jsonl`);
    const agent = await this.daemon.client.spawn({
      provider: "gemini",
      name,
      prompt: "Begin.",
      worktree: false,
      permissions,
      env: { ...this.daemon.spawnEnv, PATH: `${this.bin}:${this.daemon.spawnEnv.PATH}`, HOME: this.daemon.dir, BENCH_ACP_RECORD: record, ...env },
    });
    return { agent, record };
  }

  /** Stops the agent and waits for its session to be over. */
  async stop(agent: Agent): Promise<void> {
    await this.daemon.client.stop(agent.id);
    await until(`${agent.name} to stop`, async () => ((await this.daemon.client.agent(agent.id)).status === "running" ? undefined : true), 30_000, 50);
  }

  async close(): Promise<void> {
    await this.daemon.close();
    rmSync(this.bin, { recursive: true, force: true });
  }
}

/**
 * The lines the agent recorded so far, read incrementally: each call reads only the bytes added
 * since the last (a stat when none were), so a bench that polls it often takes little of the CPU
 * the processes it measures share.
 */
/**
 * The same-run floor beside a bench's session: the runtime's bare server on a Unix socket next to
 * the bench's workspace, and `once()`, one POST of `body` to `path` there, timed (ms).
 */
export async function startFloor(bench: AcpBench, path: string, body: string): Promise<{ once(): Promise<number>; stop(): void }> {
  const socket = join(bench.daemon.dir, "..", `floor-${process.pid}.sock`);
  const server = await bareServer(runtimeOf(BIN), socket);
  return {
    once: async () => {
      const t = now();
      const res = await unixFetch(socket, `http://floor${path}`, { method: "POST", body, headers: { "content-type": "application/json" } });
      await res.json();
      return now() - t;
    },
    stop: () => server.stop(),
  };
}

export function recordReader<T>(file: string): () => T[] {
  const lines: T[] = [];
  let offset = 0;
  let rest = "";
  return () => {
    if (!existsSync(file)) return lines;
    const size = statSync(file).size;
    if (size <= offset) return lines;
    const fd = openSync(file, "r");
    try {
      const buf = Buffer.alloc(size - offset);
      const n = readSync(fd, buf, 0, buf.length, offset);
      offset += n;
      const text = rest + buf.subarray(0, n).toString("utf8");
      const parts = text.split("\n");
      rest = parts.pop() ?? "";
      for (const l of parts) if (l) lines.push(JSON.parse(l) as T);
    } finally {
      closeSync(fd);
    }
    return lines;
  };
}
