/**
 * The user's accounts through the real daemon and CLI: add/ls/rm without a secret in any output,
 * and exhaustion shared by two workspaces' daemons through the user's store. Agents are shell
 * commands (the generic provider) whose account is an `--env` account; one that finds itself on
 * the spent account says so as Claude's usage limit would be classified (`--class usage_limit`).
 */
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { BIN, Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Account } from "../../src/protocol/account.ts";

const SECRET = "s3cret-value-9f2c";
const boxes: Sandbox[] = [];
let state: string;

afterEach(async () => {
  for (const b of boxes.splice(0)) await b.close();
  rmSync(state, { recursive: true, force: true });
});

/** A workspace whose daemon keeps the user's state in the shared `state` folder. */
function workspace(): Sandbox {
  const sb = new Sandbox();
  sb.env.XDG_STATE_HOME = state;
  boxes.push(sb);
  return sb;
}

function newState(): void {
  state = mkdtempSync(join(tmpdir(), "troupe-user-state-"));
}

const ended = (sb: Sandbox, name: string) =>
  waitFor(`${name} to end`, async () => {
    const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
    return a && ["done", "failed", "blocked", "waiting"].includes(a.status) ? a : undefined;
  });

// spent on account "one": the run reports a usage limit; anywhere else it finishes with the account it saw
const COMMAND = `if [ "$ACCT" = one ]; then troupe signal error --class usage_limit --error "quota spent"; else troupe signal done --result "ran on $ACCT"; fi`;

function allFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) allFiles(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

describe("accounts", () => {
  test("add, ls and rm: the secret is in the user's 0600 file and in no output", async () => {
    newState();
    const sb = workspace();
    const added = await sb.run(["account", "add", "--provider", "claude", "--token", SECRET, "--json"]);
    expect(added.code).toBe(0);
    const acct = JSON.parse(added.stdout) as Account;
    expect(acct).toMatchObject({ name: "claude-1", provider: "claude", kind: "token", status: "available", exhaustedUntil: null, lastUsedAt: null });
    const env = await sb.run(["account", "add", "--provider", "generic", "--env", `API_TOKEN=${SECRET}`, "--name", "work"]);
    expect(env).toMatchObject({ code: 0, stdout: expect.stringMatching(/^work \(acct_[0-9a-f]+\) generic env\n$/) });
    // `--token -` reads it from stdin: never in a process list
    const piped = Bun.spawn([BIN, "account", "add", "--provider", "codex", "--token", "-", "--name", "piped", "--json"], { cwd: sb.dir, env: sb.env, stdin: new Blob([`${SECRET}\n`]), stdout: "pipe", stderr: "pipe" });
    expect(await piped.exited).toBe(0);
    const pipedOut = await new Response(piped.stdout).text();
    expect(JSON.parse(pipedOut)).toMatchObject({ name: "piped", kind: "token" });
    expect(pipedOut).not.toContain(SECRET);
    expect((await sb.run(["account", "rm", "piped"])).code).toBe(0);
    const ls = await sb.run(["account", "ls"]);
    const lsJson = await sb.run(["account", "ls", "--json"]);
    expect(JSON.parse(lsJson.stdout).map((a: Account) => a.name)).toEqual(["claude-1", "work"]);
    for (const out of [added, env, ls, lsJson]) expect(out.stdout + out.stderr).not.toContain(SECRET);

    const file = join(state, "troupe", "accounts.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(state, "troupe")).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).toContain(SECRET);
    // nothing of the workspace's own state (store, log, events) holds it
    for (const f of allFiles(join(sb.dir, ".troupe"))) expect(readFileSync(f).includes(SECRET)).toBe(false);

    const bad = await sb.run(["account", "add", "--provider", "claude", "--token", "x", "--config-dir", "/tmp"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toContain("exactly one of --token, --config-dir or --env");
    const dup = await sb.run(["account", "add", "--provider", "claude", "--token", "y", "--name", "work"]);
    expect(dup).toMatchObject({ code: expect.not.stringMatching(/^0$/) });
    expect(dup.stderr).toContain("an account named 'work' exists");

    expect((await sb.run(["account", "rm", "work"])).stdout).toBe(`removed work (${JSON.parse(lsJson.stdout)[1].id})\n`);
    expect((await sb.run(["account", "rm", "work"])).stderr).toContain("no account 'work'");
    expect((await sb.json<Account[]>(["account", "ls", "--json"])).map((a) => a.name)).toEqual(["claude-1"]);
  }, 30_000);

  test("an agent cannot read or manage the person's accounts", async () => {
    newState();
    const sb = workspace();
    await sb.run(["account", "add", "--provider", "claude", "--token", "from-account"]);
    await sb.json(["spawn", "--name", "probe", "--command", "troupe account ls --json > out.txt 2>&1; troupe signal done", "--json"]);
    await ended(sb, "probe");
    const out = readFileSync(join(sb.dir, ".troupe", "worktrees", "probe", "out.txt"), "utf8");
    expect(out).toBe("troupe: probe may not list accounts: only the person may\n");
    expect(out).not.toContain("from-account");
  }, 30_000);

  // issue 18: an agent spawned a child on any account it named (and read its credential through
  // the child's output), told existing names from unknown ones, and its workers took the least
  // recently used account, a different one at each spawn
  test("an agent cannot borrow another account: naming one is refused alike for any name, its workers run on its own", async () => {
    newState();
    const sb = workspace();
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=a", "--name", "acct-a"]);
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=b", "--name", "acct-b"]);
    const worker = (name: string) => `troupe spawn --no-worktree --name ${name} --command 'troupe signal done --result "ran on $ACCT"' > /dev/null`;
    const parent = [
      `troupe spawn --no-worktree --name borrowed --account acct-b --command 'troupe signal done --result "$ACCT"' > /dev/null 2> named.err; echo "exit $?" >> named.err`,
      `troupe spawn --no-worktree --name guessed --account nope --command true > /dev/null 2> unknown.err; echo "exit $?" >> unknown.err`,
      worker("w1"),
      worker("w2"),
      worker("w3"),
      `troupe signal done --result "parent on $ACCT"`,
    ].join("; ");
    await sb.json(["spawn", "--no-worktree", "--name", "boss", "--account", "acct-a", "--command", parent, "--json"]);
    expect(await ended(sb, "boss")).toMatchObject({ status: "done", result: "parent on a" });
    const refusal = "troupe: boss may not name the account an agent runs on: only the person may\nexit 1\n";
    expect(readFileSync(join(sb.dir, "named.err"), "utf8")).toBe(refusal);
    expect(readFileSync(join(sb.dir, "unknown.err"), "utf8")).toBe(refusal);
    for (const w of ["w1", "w2", "w3"]) expect(await ended(sb, w)).toMatchObject({ status: "done", result: "ran on a" });
    const names = (await sb.json<Agent[]>(["ls", "--json"])).map((a) => a.name);
    expect(names).not.toContain("borrowed");
    expect(names).not.toContain("guessed");
    // the person still names any account
    await sb.json(["spawn", "--no-worktree", "--name", "chosen", "--account", "acct-b", "--command", `troupe signal done --result "on $ACCT"`, "--json"]);
    expect(await ended(sb, "chosen")).toMatchObject({ status: "done", result: "on b" });
  }, 60_000);

  test("two workspaces share exhaustion through the user's store: the other daemon never starts an agent on the spent account", async () => {
    newState();
    const a = workspace();
    const b = workspace();
    const one = await a.json<Account>(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one", "--json"]);
    const two = await a.json<Account>(["account", "add", "--provider", "generic", "--env", "ACCT=two", "--name", "two", "--json"]);
    // the least recently used account is "one" (neither used, "one" older): spent, it fails over to "two"
    await a.json(["spawn", "--name", "first", "--command", COMMAND, "--json"]);
    const first = await ended(a, "first");
    expect(first).toMatchObject({ status: "done", result: "ran on two", accountId: two.id, attempt: 2, failure: { class: "usage_limit", attempt: 1 } });

    // the other workspace's daemon reads the same user store
    const seen = await b.json<Account[]>(["account", "ls", "--json"]);
    const spent = seen.find((x) => x.id === one.id)!;
    expect(spent.status).toBe("exhausted");
    // no reset given: an hour
    expect(spent.exhaustedUntil! - Date.now()).toBeGreaterThan(3_500_000);
    await b.json(["spawn", "--name", "second", "--command", COMMAND, "--json"]);
    expect(await ended(b, "second")).toMatchObject({ status: "done", result: "ran on two", accountId: two.id, attempt: 1 });
    const pinned = await b.run(["spawn", "--name", "third", "--command", COMMAND, "--account", "one"]);
    expect(pinned.code).not.toBe(0);
    expect(pinned.stderr).toMatch(/^troupe: account 'one' is spent or unusable until \d{4}-\d\d-\d\dT.*\n$/);
    expect((await b.json<Agent[]>(["ls", "--json"])).map((x) => x.name)).toEqual(["second"]);
  }, 60_000);

  test("with every account spent the agent is blocked until the first reset, and a stop calls it off", async () => {
    newState();
    const sb = workspace();
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one"]);
    await sb.json(["spawn", "--name", "stuck", "--command", COMMAND, "--json"]);
    const blocked = await ended(sb, "stuck");
    expect(blocked).toMatchObject({ status: "blocked", failure: { class: "usage_limit" } });
    expect(blocked.retryAt! - Date.now()).toBeGreaterThan(3_500_000);
    expect((await sb.run(["ls"])).stdout).toContain("every account spent; resumes at");
    expect(await sb.json<Agent>(["stop", "stuck", "--json"])).toMatchObject({ status: "stopped", retryAt: null });
  }, 30_000);

  test("an account added for a blocked agent's provider wakes it: it runs on the new account at once", async () => {
    newState();
    const sb = workspace();
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one"]);
    await sb.json(["spawn", "--name", "stuck", "--command", COMMAND, "--json"]);
    expect(await ended(sb, "stuck")).toMatchObject({ status: "blocked" });
    const two = await sb.json<Account>(["account", "add", "--provider", "generic", "--env", "ACCT=two", "--name", "two", "--json"]);
    const done = await waitFor("stuck to run on the new account", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "stuck");
      return a?.status === "done" ? a : undefined;
    });
    expect(done).toMatchObject({ result: "ran on two", accountId: two.id, retryAt: null });
  }, 30_000);

  test("a refused credential makes the account invalid until the person resets it; the agent moves to the next account", async () => {
    newState();
    const sb = workspace();
    const refusing = `if [ "$ACCT" = one ]; then troupe signal error --class auth --error "Invalid API key · Please run /login"; else troupe signal done --result "ran on $ACCT"; fi`;
    const one = await sb.json<Account>(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one", "--json"]);
    const two = await sb.json<Account>(["account", "add", "--provider", "generic", "--env", "ACCT=two", "--name", "two", "--json"]);
    await sb.json(["spawn", "--name", "first", "--command", refusing, "--json"]);
    expect(await ended(sb, "first")).toMatchObject({ status: "done", result: "ran on two", accountId: two.id, attempt: 2, failure: { class: "auth", attempt: 1 } });
    const refused = (await sb.json<Account[]>(["account", "ls", "--json"])).find((a) => a.id === one.id)!;
    expect(refused).toMatchObject({ status: "invalid", exhaustedUntil: null });
    expect(refused.problem).toMatch(/^credential refused \d{4}-.*Invalid API key/);
    expect((await sb.run(["account", "ls"])).stdout).toMatch(/^one .* invalid: credential refused .*Invalid API key/m);
    // no reset comes by itself: a pinned spawn is refused, an unpinned one never takes it
    const pinned = await sb.run(["spawn", "--name", "pinned", "--command", refusing, "--account", "one"]);
    expect(pinned.stderr).toMatch(/^troupe: account 'one' is spent or unusable \(see 'troupe account ls'\)\n$/);
    await sb.json(["spawn", "--name", "second", "--command", refusing, "--json"]);
    expect(await ended(sb, "second")).toMatchObject({ status: "done", accountId: two.id, attempt: 1 });
    // the person logged in again: reset makes it available
    const reset = await sb.run(["account", "reset", "one"]);
    expect(reset.stdout).toBe(`one (${one.id}) available\n`);
    expect((await sb.json<Account[]>(["account", "ls", "--json"])).find((a) => a.id === one.id)).toMatchObject({ status: "available", problem: null });
    const unknown = await sb.run(["account", "reset", "nobody"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toBe("troupe: no account 'nobody'\n");
  }, 60_000);

  test("with every account refused the agent fails, saying so; none is waited for", async () => {
    newState();
    const sb = workspace();
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one"]);
    await sb.json(["spawn", "--name", "refused", "--command", `troupe signal error --class auth --error "OAuth token has expired"`, "--json"]);
    const failed = await ended(sb, "refused");
    expect(failed).toMatchObject({ status: "failed", retryAt: null, failure: { class: "auth", evidence: "OAuth token has expired" } });
  }, 30_000);

  test("a reset wakes an agent blocked on its spent account: it runs at once", async () => {
    newState();
    const sb = workspace();
    // where the agent sees it: its sandbox has a /tmp of its own
    const flag = join(sb.exchange, "quota-back");
    await sb.run(["account", "add", "--provider", "generic", "--env", "ACCT=one", "--name", "one"]);
    await sb.json(["spawn", "--name", "stuck", "--command", `if [ -e ${flag} ]; then troupe signal done --result "ran on $ACCT"; else troupe signal error --class usage_limit --error "quota spent"; fi`, "--json"]);
    expect(await ended(sb, "stuck")).toMatchObject({ status: "blocked" });
    writeFileSync(flag, "");
    await sb.run(["account", "reset", "one"]);
    const done = await waitFor("stuck to run again", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "stuck");
      return a?.status === "done" ? a : undefined;
    });
    expect(done).toMatchObject({ result: "ran on one", retryAt: null });
  }, 30_000);
});
