import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

async function until(name: string, statuses = ["done", "failed", "waiting"]): Promise<Agent> {
  return waitFor(`${name} to end`, async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
    return a && statuses.includes(a.status) ? a : undefined;
  });
}

describe("worktrees", () => {
  test("each agent works on its own branch in its own worktree, with its input files, and .troupe/ is never committed", async () => {
    sb = new Sandbox();
    const cmd = `test -f .troupe/input/prompt.md && test -f .troupe/input/manifest.json && echo one > one.txt && git add -A && git commit -qm "agent work" && troupe signal done --result "$(git rev-parse --abbrev-ref HEAD)"`;
    const a = await sb.json<Agent>(["spawn", "--name", "wt-one", "--command", cmd, "--json"]);
    const b = await sb.json<Agent>(["spawn", "--name", "wt-two", "--command", cmd, "--json"]);
    expect(a.worktree).toBe(join(sb.dir, ".troupe", "worktrees", "wt-one"));
    expect(a.cwd).toBe(a.worktree!);
    expect(a.branch).toBe("troupe/wt-one");
    expect(a.baseRef).toBe("HEAD");
    expect(b.worktree).not.toBe(a.worktree);
    const doneA = await until("wt-one");
    expect(doneA).toMatchObject({ status: "done", result: "troupe/wt-one" });
    await until("wt-two");
    const files = sb.git("show", "--name-only", "--format=", "troupe/wt-one").trim().split("\n");
    expect(files).toEqual(["one.txt"]);
    const manifest = JSON.parse(readFileSync(join(a.worktree!, ".troupe", "input", "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ id: a.id, name: "wt-one", branch: "troupe/wt-one" });
    // the workspace itself is untouched
    expect(sb.git("status", "--porcelain")).toBe("");
    expect(existsSync(join(sb.dir, "one.txt"))).toBe(false);
  });

  test("--base makes the worktree from another ref", async () => {
    sb = new Sandbox();
    sb.git("checkout", "-q", "-b", "feature");
    await Bun.write(join(sb.dir, "feature.txt"), "f\n");
    sb.git("add", ".");
    sb.git("commit", "-qm", "feature");
    sb.git("checkout", "-q", "main");
    await sb.json(["spawn", "--name", "on-feature", "--base", "feature", "--command", `troupe signal done --result "$(cat feature.txt)"`, "--json"]);
    expect(await until("on-feature")).toMatchObject({ status: "done", result: "f", baseRef: "feature" });
    const bad = await sb.run(["spawn", "--base", "no-such-ref", "--command", "true"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("troupe: no commit at 'no-such-ref' (a new repository needs a first commit)\n");
  });

  test("rm removes a finished agent's worktree and records but keeps its branch; running agents are refused", async () => {
    sb = new Sandbox();
    const a = await sb.json<Agent>(["spawn", "--name", "gone", "--command", "echo x > x.txt && git add x.txt && git commit -qm x && troupe signal done", "--json"]);
    await until("gone");
    const running = await sb.json<Agent>(["spawn", "--name", "busy", "--command", "sleep 30", "--json"]);
    const refused = await sb.run(["rm", running.name]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("troupe: busy is running; stop it first\n");
    expect((await sb.run(["rm", "gone"])).code).toBe(0);
    expect(existsSync(a.worktree!)).toBe(false);
    expect(sb.git("branch", "--list", "troupe/gone").trim()).toBe("troupe/gone");
    expect(sb.git("worktree", "list").includes("gone")).toBe(false);
    expect((await sb.json<Agent[]>(["ls", "--json"])).map((x) => x.name)).toEqual(["busy"]);
  });

  test("a refused spawn (--permissions ask where the CLI cannot ask) leaves no branch, no worktree, and its name free", async () => {
    sb = new Sandbox();
    const refused = await sb.run(["spawn", "--name", "nope", "--permissions", "ask", "--command", "true"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("--permissions ask is not available");
    expect(sb.git("branch", "--list", "troupe/nope").trim()).toBe("");
    expect(existsSync(join(sb.dir, ".troupe", "worktrees", "nope"))).toBe(false);
    expect(sb.git("worktree", "list").includes("nope")).toBe(false);
    // the name is free again: the same spawn without the refused flag runs under it
    const a = await sb.json<Agent>(["spawn", "--name", "nope", "--command", "troupe signal done --result ok", "--json"]);
    expect(a.branch).toBe("troupe/nope");
    expect(await until("nope")).toMatchObject({ status: "done", result: "ok" });
  });

  test("a workspace that is not a git repository needs --no-worktree, and says so", async () => {
    sb = new Sandbox({ git: false });
    const r = await sb.run(["spawn", "--command", "true"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`troupe: ${sb.dir} is not a git repository; use --no-worktree to run there\n`);
    await sb.json(["spawn", "--no-worktree", "--name", "plain", "--command", `troupe signal done --result "$(pwd)"`, "--json"]);
    expect(await until("plain")).toMatchObject({ status: "done", result: sb.dir, worktree: null });
  });

  test("agents that share the workspace folder get their own signal files", async () => {
    sb = new Sandbox();
    const cmd = (r: string) => `troupe signal done --result ${r}; echo "$TROUPE_SIGNAL_FILE"`;
    await sb.json(["spawn", "--no-worktree", "--name", "s-one", "--command", cmd("one"), "--json"]);
    await sb.json(["spawn", "--no-worktree", "--name", "s-two", "--command", cmd("two"), "--json"]);
    expect((await until("s-one")).result).toBe("one");
    expect((await until("s-two")).result).toBe("two");
  });
});

describe("failure without a signal", () => {
  test("an agent that exits without signalling is failed with a clear error, a signal file written by hand too; questions are answered by resuming", async () => {
    sb = new Sandbox();
    await sb.json(["spawn", "--no-worktree", "--name", "quiet", "--command", "exit 4", "--json"]);
    expect(await until("quiet")).toMatchObject({ status: "failed", error: "exited with code 4 without a signal (the agent must end with 'troupe signal')" });
    // only what the daemon recorded counts: a file written by hand is named, never taken
    await sb.json(["spawn", "--no-worktree", "--name", "garbled", "--command", `printf '{"status":' > "$TROUPE_SIGNAL_FILE"`, "--json"]);
    const file = `${sb.dir}/.troupe/agents/garbled/output/signal.json`;
    expect(await until("garbled")).toMatchObject({
      status: "failed",
      error: `signal file refused: ${file} holds "{\\"status\\":", which troupe did not write for this session (an agent's signal counts only when sent with 'troupe signal')`,
    });
    const asker = `if printf '%s' "$TROUPE_PROMPT" | grep -q '^A: '; then troupe signal done --result "$(printf '%s\\n' "$TROUPE_PROMPT" | sed -n 's/^A: //p' | paste -sd, -)"; else troupe signal questions --question "which db?" --question "which port?"; fi`;
    await sb.json(["spawn", "--no-worktree", "--name", "asker", "--command", asker, "--json"]);
    const w = await until("asker");
    expect(w.status).toBe("waiting");
    expect((w as unknown as { questions: unknown }).questions).toEqual([
      { id: "q1", question: "which db?" },
      { id: "q2", question: "which port?" },
    ]);
    const unknown = await sb.run(["resume", "asker", "--answer", "q9=x"]);
    expect(unknown.stderr).toBe("troupe: asker asked no question 'q9'\n");
    const bad = await sb.run(["resume", "asker", "--answer", "novalue"]);
    expect(bad.code).toBe(2);
    const resume = await sb.run(["resume", "asker", "--answer", "q1=postgres", "--answer", "q2=5432"]);
    expect(resume).toMatchObject({ code: 0, stdout: "asker resumed (session 2)\n" });
    const done = await waitFor("asker done", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "asker");
      return a?.status === "done" ? a : undefined;
    });
    expect(done.result).toBe("postgres,5432");
    const again = await sb.run(["resume", "quiet", "--message", "try again"]);
    expect(again).toMatchObject({ code: 0 });
    await sb.json(["spawn", "--no-worktree", "--name", "busy", "--command", "sleep 30", "--json"]);
    const refused = await sb.run(["resume", "busy", "--message", "x"]);
    expect(refused).toMatchObject({ code: 1, stderr: "troupe: busy is running; only a waiting, done, failed or stopped agent can be resumed\n" });
  });
});
