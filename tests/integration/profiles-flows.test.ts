import { afterEach, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { Sandbox, waitFor } from "../support/sandbox.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

function sandbox(): Sandbox {
  sb = new Sandbox();
  // the machine's own ~/.config/troupe/profiles stay out of the test
  sb.env.XDG_STATE_HOME = join(sb.runtime, "state");
  mkdirSync(join(sb.dir, ".troupe", "profiles"), { recursive: true });
  return sb;
}

const profile = (name: string, text: string) => writeFileSync(join(sb.dir, ".troupe", "profiles", `${name}.md`), text);

interface Agent { id: string; name: string; status: string; model: string | null; permissions: string }

test("spawn --profile with a generic command profile: the role's instructions come before the prompt", async () => {
  sandbox();
  profile("shell", "---\nprovider: generic\npermissions: plan\n---\nROLE: you are the release checker.\n");
  const out = join(sb.runtime, "prompt.txt");
  const a = await sb.json<Agent>(["spawn", "--profile", "shell", "--no-worktree", "--command", `printf %s "$TROUPE_PROMPT" > ${out}`, "--json"]);
  expect(a.permissions).toBe("plan");
  await waitFor("the prompt file", () => existsSync(out) && readFileSync(out, "utf8").length > 0);
  const prompt = readFileSync(out, "utf8");
  expect(prompt.startsWith("ROLE: you are the release checker.\n\n---\n\n")).toBe(true);
  expect(prompt.match(/ROLE:/g)).toHaveLength(1);
});

test("spawn --profile with a claude profile: --append-system-prompt, model and tools reach claude's argv; spawn flags win; a resume keeps the role", async () => {
  sandbox();
  const bin = join(sb.runtime, "bin");
  mkdirSync(bin);
  const runs = join(sb.runtime, "runs");
  mkdirSync(runs);
  // a scripted claude: records each run's argv and its prompt (stdin's first line), reports a session, ends done
  writeFileSync(
    join(bin, "claude"),
    `#!/bin/sh
n=$(ls ${runs} | wc -l)
IFS= read -r prompt || true
printf '%s\\0' "$@" "$prompt" > ${runs}/$n
echo '{"type":"system","subtype":"init","session_id":"sess-1"}'
troupe signal done --result ok
`,
  );
  chmodSync(join(bin, "claude"), 0o755);
  profile("reviewer", "---\nprovider: claude\nmodel: opus\nallowedTools: [Read, Grep]\nbudget: 3\n---\n-Review like a hawk.\n");
  const env = { PATH: `${bin}:${process.env.PATH}` };
  const a = await sb.json<Agent>(["spawn", "--profile", "reviewer", "--model", "haiku", "--prompt", "look at main", "--json"], { env });
  expect(a.model).toBe("haiku");
  const argvOf = (n: number) => readFileSync(join(runs, String(n)), "utf8").split("\0");
  await waitFor("the agent done", async () => (await sb.json<Agent[]>(["ls", "--json"]))[0]?.status === "done");
  const argv = argvOf(0);
  expect(argv).toContain("--append-system-prompt=-Review like a hawk.");
  // the profile's budget is the agent's (the lifecycle's --budget): claude is told what is left
  expect(argv.slice(argv.indexOf("--max-budget-usd"), argv.indexOf("--max-budget-usd") + 2)).toEqual(["--max-budget-usd", "3.00"]);
  expect(argv.slice(argv.indexOf("--model"), argv.indexOf("--model") + 2)).toEqual(["--model", "haiku"]);
  expect(argv.slice(argv.indexOf("--allowedTools"), argv.indexOf("--allowedTools") + 3)).toEqual(["--allowedTools", "Read", "Grep"]);
  // the instructions are the system prompt, not the prompt
  expect(argv.filter((x) => x.includes("hawk"))).toHaveLength(1);

  // the profile file changes; the agent's resume keeps the role it was spawned with
  profile("reviewer", "---\nprovider: claude\n---\nSomething else.\n");
  expect((await sb.run(["resume", a.name, "--message", "and the tests"], { env })).code).toBe(0);
  await waitFor("the resumed run", () => existsSync(join(runs, "1")) && readFileSync(join(runs, "1"), "utf8").includes("and the tests"));
  const resumed = argvOf(1);
  expect(resumed).toContain("--append-system-prompt=-Review like a hawk.");
  expect(resumed.slice(resumed.indexOf("--resume"), resumed.indexOf("--resume") + 2)).toEqual(["--resume", "sess-1"]);
  expect(resumed.slice(resumed.indexOf("--allowedTools"), resumed.indexOf("--allowedTools") + 3)).toEqual(["--allowedTools", "Read", "Grep"]);
});

test("a broken or unknown profile refuses the spawn in one line, and profile validate names the file and field", async () => {
  sandbox();
  profile("bad", "---\nprovider: claude\npermissions: everything\n---\nx\n");
  const r = await sb.run(["spawn", "--profile", "bad", "--prompt", "x"]);
  expect(r.code).not.toBe(0);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toContain(`profile 'bad' is broken: ${join(sb.dir, ".troupe", "profiles", "bad.md")}: permissions: `);
  expect((await sb.run(["spawn", "--profile", "none", "--prompt", "x"])).stderr).toContain("no profile 'none'");
  const v = await sb.run(["profile", "validate"]);
  expect(v.code).toBe(1);
  expect(v.stdout).toContain("bad.md: permissions: ");
  expect((await sb.json<{ agents?: unknown }[]>(["ls", "--json"])).length).toBe(0);
});

interface FlowRun { outcome: string; agentId: string | null; flow: { lastOutcome: string } }

/** A scripted `claude` that records its argv, then stays up `seconds`. */
function fakeClaude(seconds: number): { env: Record<string, string>; argvFile: string } {
  const bin = join(sb.runtime, "bin");
  mkdirSync(bin, { recursive: true });
  const argvFile = join(sb.runtime, "argv");
  // argv, then the prompt (stdin's first line, a stream-json user message)
  writeFileSync(join(bin, "claude"), `#!/bin/sh\nIFS= read -r prompt || true\nprintf '%s\\0' "$@" "$prompt" > ${argvFile}\nsleep ${seconds}\n`);
  chmodSync(join(bin, "claude"), 0o755);
  return { env: { PATH: `${bin}:${process.env.PATH}` }, argvFile };
}

test("flow run: the gate skips or fills the prompt; a live previous run is never overlapped", async () => {
  sandbox();
  const gateOut = join(sb.runtime, "gate.json");
  const { env, argvFile } = fakeClaude(60);
  // the flow's environment is the adding shell's: PATH finds the fake claude, the gate reads GATE_FILE
  const add = await sb.run(["flow", "add", "nightly", "--cron", "0 3 * * *", "--provider", "claude", "--prompt", "review PR [[pr]]", "--gate", 'cat "$GATE_FILE"'], {
    env: { ...env, GATE_FILE: gateOut },
  });
  expect(add.code).toBe(0);
  writeFileSync(gateOut, '{"run": false}');
  const skipped = await sb.json<FlowRun>(["flow", "run", "nightly", "--json"]);
  expect(skipped.outcome).toBe("skipped by its gate");
  expect(skipped.agentId).toBeNull();
  expect(existsSync(argvFile)).toBe(false);

  writeFileSync(gateOut, '{"pr": 7}');
  const started = await sb.json<FlowRun>(["flow", "run", "nightly", "--json"]);
  expect(started.outcome).toStartWith("started ");
  await waitFor("claude's argv", () => existsSync(argvFile) && readFileSync(argvFile, "utf8").length > 0);
  expect(readFileSync(argvFile, "utf8")).toContain("review PR 7");

  const again = await sb.json<FlowRun>(["flow", "run", "nightly", "--json"]);
  expect(again.outcome).toMatch(/^skipped: its previous run [a-z-]+ is still (starting|running)$/);
  expect(again.agentId).toBeNull();
  const agents = await sb.json<Agent[]>(["ls", "--json"]);
  expect(agents).toHaveLength(1);
  expect(agents[0]!.id).toBe(started.agentId!);

  // adding, running and removing flows is the person's
  const token = await sb.run(["flow", "run", "nightly"], { env: { TROUPE_AGENT_TOKEN: "forged" } });
  expect(token.code).not.toBe(0);
});

test("a run missed while no daemon ran runs once at the next start", async () => {
  sandbox();
  const { env } = fakeClaude(0);
  expect((await sb.run(["flow", "add", "tick", "--cron", "0 0 1 1 *", "--provider", "claude", "--prompt", "x"], { env })).code).toBe(0);
  await sb.run(["daemon", "stop"]);
  const db = new Database(join(sb.dir, ".troupe", "troupe.db"));
  db.query("UPDATE flows SET next_run_at = ? WHERE name = 'tick'").run(Date.now() - 3 * 86_400_000);
  db.close();
  await sb.run(["daemon", "start"]);
  const flow = await waitFor("the missed run", async () => {
    const f = await sb.json<{ lastRunAt: number | null; lastOutcome: string | null; nextRunAt: number }>(["flow", "show", "tick", "--json"]);
    return f.lastRunAt !== null && f;
  });
  expect(flow.lastOutcome).toStartWith("started ");
  expect(flow.nextRunAt).toBeGreaterThan(Date.now());
  // once, however many times it was missed
  expect(await sb.json<Agent[]>(["ls", "--json"])).toHaveLength(1);
});

test("an enabled flow keeps the daemon from its idle exit; disabled, the daemon exits", async () => {
  sandbox();
  const env = { TROUPE_IDLE_EXIT_MS: "1000" };
  expect((await sb.run(["flow", "add", "weekly", "--cron", "@weekly", "--provider", "claude", "--prompt", "x"], { env })).code).toBe(0);
  const pid = (await sb.daemonPid())!;
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const t0 = Date.now();
  await waitFor("three idle periods", () => Date.now() - t0 > 3_000, 5_000);
  expect(alive()).toBe(true);
  expect((await sb.run(["flow", "disable", "weekly"], { env })).stdout).toBe("flow weekly disabled\n");
  await waitFor("the daemon to exit", () => !alive(), 10_000);
}, 30_000);

test("the timer runs a flow at its times (every second here); while its run is live the next ones are skipped", async () => {
  sandbox();
  const { env } = fakeClaude(60);
  expect((await sb.run(["flow", "add", "often", "--cron", "* * * * * *", "--provider", "claude", "--prompt", "tick"], { env })).code).toBe(0);
  interface Shown { lastOutcome: string | null; lastRunAt: number | null }
  const show = () => sb.json<Shown>(["flow", "show", "often", "--json"]);
  await waitFor("a skipped run", async () => (await show()).lastOutcome?.startsWith("skipped: its previous run") ?? false, 10_000);
  expect((await sb.run(["flow", "disable", "often"])).code).toBe(0);
  expect(await sb.json<Agent[]>(["ls", "--json"])).toHaveLength(1);
}, 30_000);

test("flow add refuses a bad cron expression, an unknown provider or profile in one line, and adds nothing", async () => {
  sandbox();
  await sb.run(["daemon", "start"]);
  for (const [args, why] of [
    [["--cron", "every day", "--provider", "claude"], "--cron 'every day' is not a cron expression"],
    [["--cron", "@daily", "--provider", "nope"], "unknown provider 'nope'"],
    [["--cron", "@daily", "--profile", "ghost"], "no profile 'ghost'"],
  ] as const) {
    const r = await sb.run(["flow", "add", "f", ...args, "--prompt", "x"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(why);
  }
  const usage = await sb.run(["flow", "add", "f", "--cron", "@daily", "--prompt", "x"]);
  expect(usage.code).toBe(2);
  expect(usage.stderr.split("\n")[0]).toBe("troupe: give --profile or --provider (one of them)");
  expect(await sb.json<unknown[]>(["flow", "ls", "--json"])).toEqual([]);
});
