import { afterEach, expect, test } from "bun:test";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

const agent = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

// The invariant behind every way a run starts: at most one process per agent at any time.
test("resumes that race each other start one session: the others are refused, none runs twice", async () => {
  sb = new Sandbox();
  // each run counts itself in a file, then waits to be let go, so a second process would show
  const cmd = `echo run >> runs; while [ ! -f go ]; do sleep 0.05; done; troupe signal done --result ok`;
  await sb.json(["spawn", "--no-worktree", "--name", "solo", "--command", cmd, "--json"]);
  await waitFor("solo running", async () => (await agent("solo"))?.status === "running");
  await Bun.write(`${sb.dir}/go`, "");
  await waitFor("solo done", async () => (await agent("solo"))?.status === "done");
  const { rmSync } = await import("node:fs");
  rmSync(`${sb.dir}/go`);

  // straight to the socket, all at once: separate CLI processes would arrive one by one
  const resume = (i: number) =>
    fetch("http://troupe/v1/agents/solo/resume", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: `go ${i}` }),
      unix: sb.socket,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error?: { message: string } } }));
  const tries = await Promise.all(Array.from({ length: 8 }, (_, i) => resume(i)));
  expect(tries.filter((r) => r.status === 200)).toHaveLength(1);
  for (const r of tries.filter((r) => r.status !== 200)) {
    expect(r.status).toBe(409);
    expect(r.body.error?.message).toMatch(/^solo is (starting|running); only a .* agent can be resumed$/);
  }

  await waitFor("the one resumed run", async () => (await Bun.file(`${sb.dir}/runs`).text()).trim().split("\n").length === 2);
  await Bun.write(`${sb.dir}/go`, "");
  const done = await waitFor("solo done again", async () => {
    const a = await agent("solo");
    return a?.status === "done" ? a : undefined;
  });
  expect(done.session).toBe(2);
  expect((await Bun.file(`${sb.dir}/runs`).text()).trim().split("\n")).toEqual(["run", "run"]);
}, 30_000);
