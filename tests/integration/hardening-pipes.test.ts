import { beforeAll, describe, expect, test } from "bun:test";
import { BIN, waitFor } from "../support/sandbox.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

// The compiled binary, piped into a reader that waits before reading: Bun queues what the pipe
// cannot take, and an exit with that queue full used to cut the output at 64 KiB, exit code 0.

const sb = fileSandbox({ daemon: true });

/** Runs `troupe ARGS | READER` in sh; reports troupe's exit code (PIPESTATUS) on the last line of stderr. */
async function piped(args: string[], reader: string) {
  const quoted = args.map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const script = `"$TROUPE_BIN" ${quoted} | ${reader}; echo "troupe-exit=\${PIPESTATUS[0]}" >&2`;
  const p = Bun.spawn(["bash", "-c", script], { cwd: sb.dir, env: { ...sb.env, TROUPE_BIN: BIN }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  const exit = Number(/troupe-exit=(\d+)/.exec(stderr)?.[1] ?? NaN);
  return { stdout, stderr: stderr.replace(/troupe-exit=\d+\n/, ""), exit };
}

async function spawnApi(body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await fetch("http://troupe/v1/agents", { method: "POST", body: JSON.stringify(body), unix: sb.socket });
  if (res.status !== 201 && res.status !== 200) throw new Error(`spawn: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { agent: { id: string } }).agent;
}

describe("output piped to a slow reader arrives whole", () => {
  let bigId = "";
  let bigBytes = 0;

  beforeAll(async () => {
    // ~400 KB of output: far more than a pipe holds
    const cmd = "i=0; while [ $i -lt 4000 ]; do printf 'line %05d %s\\n' $i 0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123; i=$((i+1)); done; troupe signal done";
    bigId = (await spawnApi({ provider: "generic", command: cmd, worktree: false, name: "big" })).id;
    await waitFor("big done", async () => {
      const agents = await sb.json<{ id: string; status: string }[]>(["ls", "--json"]);
      return agents.find((a) => a.id === bigId)?.status === "done";
    }, 30_000);
    bigBytes = (await sb.run(["logs", bigId, "--raw"])).stdout.length;
  }, 60_000);

  test("logs --raw | (sleep 1; wc -c) counts every byte", async () => {
    expect(bigBytes).toBeGreaterThan(400_000);
    const r = await piped(["logs", bigId, "--raw"], "(sleep 1; wc -c)");
    expect(r.exit).toBe(0);
    expect(Number(r.stdout.trim())).toBe(bigBytes);
  }, 60_000);

  test("ls --json with 200 agents parses after a slow reader", async () => {
    for (let i = 0; i < 200; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => spawnApi({ provider: "generic", command: "true", worktree: false, name: `cheap-${i + j}` })));
    }
    const r = await piped(["ls", "--json"], "(sleep 1; cat)");
    expect(r.exit).toBe(0);
    expect(r.stdout.length).toBeGreaterThan(65_536);
    const agents = JSON.parse(r.stdout) as unknown[];
    expect(agents.length).toBeGreaterThanOrEqual(201);
  }, 60_000);

  test("a reader that closes early (| head -c 10) ends troupe quietly", async () => {
    for (const args of [["logs", bigId, "--raw"], ["ls", "--json"], ["logs", bigId, "--raw", "-f"]]) {
      const r = await piped(args, "head -c 10");
      expect(r.stdout.length).toBe(10);
      expect(r.stderr).toBe("");
      expect(r.exit).toBe(0);
    }
  }, 60_000);

  test("logs -f of a running agent survives a slow reader and ends with the agent", async () => {
    const cmd = "i=0; while [ $i -lt 3000 ]; do printf 'follow %05d %s\\n' $i 0123456789012345678901234567890123456789012345678901234567890123456789; i=$((i+1)); done; sleep 1; troupe signal done";
    const { id } = await spawnApi({ provider: "generic", command: cmd, worktree: false, name: "follow" });
    const r = await piped(["logs", id, "--raw", "-f"], "(sleep 2; cat)");
    expect(r.exit).toBe(0);
    const lines = r.stdout.split("\n").filter((l) => l.startsWith("follow "));
    expect(lines.length).toBe(3000);
    expect(lines[2999]).toStartWith("follow 02999 ");
    expect(r.stdout).toBe((await sb.run(["logs", id, "--raw"])).stdout);
  }, 60_000);
});
