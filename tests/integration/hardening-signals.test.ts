import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

// issue 18, second pass: a signal counts only as the daemon recorded it for the session that sent
// it (`troupe signal`). Before, an agent that wrote `{"status":"done",...}` into another agent's
// signal file ended that agent `done` with its words; a second signal silently replaced the
// first; and the daemon's clear-before-resume deleted through a link the agent planted.

const open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
function sandbox(opts: { sandboxed?: boolean } = {}): Sandbox {
  const sb = new Sandbox(opts);
  open.push(sb);
  return sb;
}

const ended = (sb: Sandbox, name: string) =>
  waitFor(`${name} to end`, async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
    return a && !["running", "starting"].includes(a.status) ? a : undefined;
  });

describe("only the daemon's record of a session's signal counts", () => {
  test("a result planted in another agent's signal file is refused: the victim fails naming what was found", async () => {
    // the daemon's own check, for agents that run unsandboxed (mode off, a machine without bwrap):
    // a sandboxed planter cannot write there at all (tests/integration/sandbox.test.ts)
    const sb = sandbox({ sandboxed: false });
    const go = join(sb.dir, "go");
    await sb.json(["spawn", "--name", "victim", "--command", `while [ ! -f ${go} ]; do sleep 0.05; done; exit 0`, "--json"]);
    const victimFile = join(sb.dir, ".troupe/worktrees/victim/.troupe/output/signal.json");
    await waitFor("victim's output folder", () => existsSync(join(victimFile, "..")));
    const plant = `printf '{"status":"done","result":"planted"}' > ${victimFile}; troupe signal done --result planter`;
    await sb.json(["spawn", "--no-worktree", "--name", "planter", "--command", plant, "--json"]);
    expect(await ended(sb, "planter")).toMatchObject({ status: "done", result: "planter" });
    expect(JSON.parse(readFileSync(victimFile, "utf8"))).toEqual({ status: "done", result: "planted" });
    writeFileSync(go, "");
    const victim = await ended(sb, "victim");
    expect(victim).toMatchObject({ status: "failed", result: null, failure: { class: "missing_signal" } });
    expect(victim.error).toBe(
      `signal file refused: ${victimFile} holds "{\\"status\\":\\"done\\",\\"result\\":\\"planted\\"}", which troupe did not write for this session (an agent's signal counts only when sent with 'troupe signal')`,
    );
  }, 60_000);

  test("a second signal in one run is refused with a clear error and exit 1; the first stands (the same one again is no change)", async () => {
    const sb = sandbox();
    const cmd = [
      "troupe signal done --result first",
      "troupe signal done --result first > again.out 2>&1; echo \"exit $?\" >> again.out",
      "troupe signal error --error second > second.out 2>&1; echo \"exit $?\" >> second.out",
    ].join("; ");
    await sb.json(["spawn", "--no-worktree", "--name", "twice", "--command", cmd, "--json"]);
    expect(await ended(sb, "twice")).toMatchObject({ status: "done", result: "first", error: null });
    expect(readFileSync(join(sb.dir, "again.out"), "utf8")).toBe("signalled done\nexit 0\n");
    expect(readFileSync(join(sb.dir, "second.out"), "utf8")).toBe("troupe: twice already signalled done in this run; a run ends with one signal, and the first stands\nexit 1\n");
    // a resume is a new run: it signals anew
    expect((await sb.run(["resume", "twice", "--message", "again"])).code).toBe(0);
    await waitFor("session 2", async () => ((await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "twice")?.session === 2 ? true : undefined));
    expect(await ended(sb, "twice")).toMatchObject({ status: "done", result: "first", session: 2 });
  }, 60_000);

  test("the record survives kill -9 of the daemon between the signal and the run's end; the file changed afterwards does not count", async () => {
    const sb = sandbox();
    const go = join(sb.dir, "go");
    const cmd = `troupe signal done --result survived; printf '{"status":"error","error":"overwritten"}' > "$TROUPE_SIGNAL_FILE"; while [ ! -f ${go} ]; do sleep 0.05; done; exit 0`;
    await sb.json(["spawn", "--no-worktree", "--name", "steady", "--command", cmd, "--json"]);
    const file = join(sb.dir, ".troupe/agents/steady/output/signal.json");
    await waitFor("the file overwritten", () => (existsSync(file) && readFileSync(file, "utf8").includes("overwritten") ? true : undefined));
    const daemon = await sb.daemonPid();
    process.kill(daemon!, "SIGKILL");
    writeFileSync(go, "");
    // the next client starts the next daemon, which completes the run from the store
    expect(await ended(sb, "steady")).toMatchObject({ status: "done", result: "survived" });
    expect(await sb.daemonPid()).not.toBe(daemon);
  }, 60_000);
});

describe("the daemon never deletes or creates through a link the agent planted", () => {
  test("a link planted as .troupe/output: the resume is refused naming it, nothing outside is deleted or created", async () => {
    const sb = sandbox();
    const victim = join(sb.runtime, "victim");
    mkdirSync(join(victim, "signal.json"), { recursive: true });
    writeFileSync(join(victim, "signal.json", "precious"), "keep me");
    const cmd = `rm -rf .troupe/output; ln -s ${victim} .troupe/output; troupe signal done 2> signal.err; exit 0`;
    await sb.json(["spawn", "--name", "linker", "--command", cmd, "--json"]);
    const first = await ended(sb, "linker");
    // its own signal was refused too (the daemon writes no file through the link): it failed without one
    expect(first.status).toBe("failed");
    const link = join(sb.dir, ".troupe/worktrees/linker/.troupe/output");
    const resumed = await sb.run(["resume", "linker", "--message", "again"]);
    expect(existsSync(join(victim, "signal.json", "precious"))).toBe(true);
    expect(readFileSync(join(victim, "signal.json", "precious"), "utf8")).toBe("keep me");
    expect(resumed).toMatchObject({ code: 1, stdout: "", stderr: `troupe: ${link} is a link (to ${victim}); troupe will not create or delete through a link (remove it)\n` });
    expect(readFileSync(join(sb.dir, ".troupe/worktrees/linker/signal.err"), "utf8")).toContain(`${link} is a link (to ${victim}); troupe will not create or delete through a link (remove it)`);
    // it stays as it was, resumable once the link is gone
    expect((await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "linker")).toMatchObject({ status: "failed", session: 1 });
  }, 60_000);
});
