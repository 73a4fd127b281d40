import { afterEach, describe, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

describe("agent output", () => {
  test("logs shows stored output, rendered and raw; stdout and stderr both kept", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "talker", "--command", "echo hello; echo oops >&2; printf 'no newline'; troupe signal done", "--json"]);
    await waitFor("talker done", async () => (await sb.json<Agent[]>(["ls", "--json"]))[0]?.status === "done");
    const rendered = await sb.run(["logs", "talker"]);
    expect(rendered.code).toBe(0);
    const lines = rendered.stdout.split("\n");
    expect(lines).toContain("hello");
    expect(lines).toContain("oops");
    expect(rendered.stdout).toContain("no newline");
    const raw = await sb.run(["logs", "talker", "--raw"]);
    expect(raw.stdout).toContain("hello\n");
    const session2 = await sb.run(["logs", "talker", "--session", "2"]);
    expect(session2.stdout).toBe("");
    // the API pages forwards with `after` and backwards from the end with `before`
    const page = async (q: string) => {
      const res = await fetch(`http://troupe/v1/agents/talker/output?${q}`, { unix: sb.socket });
      return { status: res.status, body: (await res.json()) as { chunks?: { id: number; data: string }[] } };
    };
    const all = (await page("after=0")).body.chunks!;
    expect(all.length).toBeGreaterThan(1);
    const last = (await page(`before=${Number.MAX_SAFE_INTEGER}&limit=1`)).body.chunks!;
    expect(last).toEqual([all[all.length - 1]!]);
    const earlier = (await page(`before=${all[all.length - 1]!.id}&limit=100`)).body.chunks!;
    expect(earlier).toEqual(all.slice(0, -1));
    expect((await page("after=1&before=5")).status).toBe(400);
  });

  // issue 18: --raw expanded tabs, took a carriage return as its overwrite, stripped escapes,
  // merged stderr into stdout without a marker, and showed troupe's retention note as the agent's stderr
  test("logs --raw is the bytes as written, stdout and stderr apart, troupe's notes as troupe's; the rendered view sanitizes", async () => {
    sb = new Sandbox();
    const cmd = `printf 'a\\tb\\rc \\033[31mred\\033[0m\\n'; printf 'warn\\tx\\n' >&2; troupe signal done > /dev/null`;
    await sb.json(["spawn", "--no-worktree", "--name", "bytes", "--command", cmd, "--json"]);
    await waitFor("bytes done", async () => (await sb.json<Agent[]>(["ls", "--json"]))[0]?.status === "done");
    const raw = await sb.run(["logs", "bytes", "--raw"]);
    expect(raw).toMatchObject({ code: 0, stdout: "a\tb\rc \x1b[31mred\x1b[0m\n", stderr: "warn\tx\n" });
    const rendered = await sb.run(["logs", "bytes"]);
    expect(rendered.stdout).toBe("c red\nwarn    x\n");
    const json = (await sb.run(["logs", "bytes", "--json"])).stdout.trimEnd().split("\n").map((l) => JSON.parse(l) as { stream: string; data: string });
    expect(json.map((c) => [c.stream, c.data])).toEqual([
      ["stdout", "a\tb\rc \x1b[31mred\x1b[0m\n"],
      ["stderr", "warn\tx\n"],
    ]);
    expect((await sb.run(["logs", "bytes", "--raw", "--json"])).code).toBe(2);

    // past the cap the oldest output goes; the note saying so is troupe's, on stderr after "troupe: "
    const capped = new Sandbox();
    try {
      await Bun.write(`${capped.dir}/.troupe/config.json`, JSON.stringify({ output: { maxPerAgent: "1MiB" } }));
      const flood = "i=0; while [ $i -lt 3000 ]; do printf '%01000d\\n' $i; i=$((i+1)); done; troupe signal done > /dev/null";
      await capped.json(["spawn", "--no-worktree", "--name", "flood", "--command", flood, "--json"]);
      await waitFor("flood done, cut down", async () => {
        const a = (await capped.json<Agent[]>(["ls", "--json"]))[0];
        return a?.status === "done" && (await capped.run(["logs", "flood", "--json"])).stdout.includes('"stream":"troupe"');
      }, 30_000);
      const r = await capped.run(["logs", "flood", "--raw"]);
      expect(r.stderr).toMatch(/^troupe: … [\d.]+ (KiB|MiB) of older output dropped \(cap 1 MiB\)\n$/);
      expect(r.stdout).not.toContain("dropped");
      expect(r.stdout.split("\n").every((l) => l === "" || /^\d{1000}$/.test(l))).toBe(true);
      expect((await capped.run(["logs", "flood"])).stdout.split("\n")[0]).toMatch(/^troupe: … .* of older output dropped \(cap 1 MiB\)$/);
    } finally {
      await capped.close();
    }
  }, 60_000);

  test("logs -f follows live output until the agent ends", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "ticker", "--command", "for i in 1 2 3 4 5; do echo tick $i; sleep 0.2; done; troupe signal done", "--json"]);
    const follow = sb.start(["logs", "ticker", "-f", "--raw"]);
    const code = await follow.exited;
    const out = await new Response(follow.stdout).text();
    expect(code).toBe(0);
    expect(out.split("\n").filter((l) => l.startsWith("tick"))).toEqual(["tick 1", "tick 2", "tick 3", "tick 4", "tick 5"]);
  });

  test("stop ends the agent's whole process group and marks it stopped", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "sleeper", "--command", "sleep 60 & sleep 60; wait", "--json"]);
    const before = await sb.json<{ pid: number }[]>(["ls", "--json"]);
    const pid = before[0]!.pid;
    const r = await sb.run(["stop", "sleeper"]);
    expect(r.stdout).toBe("sleeper stopped\n");
    await waitFor("the group to be gone", () => Bun.spawnSync(["pgrep", "-g", String(pid)]).exitCode !== 0);
    const after = await sb.json<Agent[]>(["ls", "--json"]);
    expect(after[0]).toMatchObject({ status: "stopped", pid: null });
  });
});

test("an event subscriber can ask for one agent's output, or none", async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
  const read = async (q: string) => {
    const abort = new AbortController();
    const res = await fetch(`http://troupe/v1/events${q}`, { unix: sb.socket, signal: abort.signal });
    const reader = res.body!.getReader();
    let text = "";
    const done = (async () => {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        text += new TextDecoder().decode(value);
        if (text.includes('"status":"done"') && text.split('"status":"done"').length > 2) return;
      }
    })();
    return { stop: async () => { await Promise.race([done, Bun.sleep(10_000)]); abort.abort(); return text; } };
  };
  const all = await read("");
  const none = await read("?output=none");
  const a = await sb.json<{ id: string }>(["spawn", "--no-worktree", "--name", "one", "--command", "while [ ! -f go ]; do sleep 0.02; done; printf 'x%sy\\n' one; troupe signal done", "--json"]);
  const onlyA = await read(`?output=${a.id}`);
  await Bun.write(`${sb.dir}/go`, "");
  await sb.json(["spawn", "--no-worktree", "--name", "two", "--command", "printf 'x%sy\\n' two; troupe signal done", "--json"]);
  const [t1, t2, t3] = await Promise.all([all.stop(), none.stop(), onlyA.stop()]);
  // (the command lines themselves travel in lifecycle events; what they print does not)
  expect(t1).toContain("xtwoy");
  expect(t2).not.toContain("event: agent:output");
  expect(t2).toContain("event: agent:updated");
  expect(t3).toContain("xoney");
  expect(t3).not.toContain("xtwoy");
});
