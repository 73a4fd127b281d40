/**
 * Accounts and failover with the real Claude Code CLI, offline: the scripted Messages API answers
 * one token's requests with the subscription usage-limit 429 (as recorded from the real API) and
 * another's normally. The accounts live in a temporary $XDG_STATE_HOME, as a user's would.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { ROOT, Sandbox, waitFor } from "../support/sandbox.ts";
import { apiError, bash, claudeEnv, requestToken, startFakeAnthropic, text, turnIndex, usageLimitError, usageWindowHeaders, type ApiError, type FakeAnthropic } from "../support/fake-anthropic.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Account } from "../../src/protocol/account.ts";

/** Which tokens are spent, and until when (epoch ms); past it they are served again. */
const spent = new Map<string, number>();
/** Tokens the API refuses (401), as a revoked or mistyped token is. */
const refused = new Set<string>();
/** Rate-limit headers each token's replies carry: its usage windows. */
const windows = new Map<string, Record<string, string>>();
/** Tokens served this many more requests before they are spent for an hour. */
const allowance = new Map<string, number>();
let server: FakeAnthropic;
let home: string;
let sb: Sandbox;

beforeAll(() => {
  const gate = (headers: Record<string, string>): ApiError | undefined => {
    const tok = requestToken(headers) ?? "";
    if (refused.has(tok)) return apiError(401, "authentication_error", "Invalid bearer token");
    const left = allowance.get(tok);
    if (left !== undefined) {
      allowance.set(tok, left - 1);
      if (left <= 0) spent.set(tok, Date.now() + 3_600_000);
    }
    const until = spent.get(tok);
    return until !== undefined && Date.now() < until ? usageLimitError(until) : undefined;
  };
  server = startFakeAnthropic((req) => {
    // the carry-over case writes a file first (its first run gets going), the others finish at once
    const steps = req.messages.some((m) => JSON.stringify(m.content).includes("step1.txt"))
      ? [[bash("echo 'wrote step 1' > step1.txt && git add step1.txt && git commit -qm step1 && cat step1.txt")], [bash("troupe signal done --result finished")]]
      : [[bash("troupe signal done --result finished")]];
    return steps[turnIndex(req)] ?? [text("Done.")];
  }, { gate, limits: (headers) => windows.get(requestToken(headers) ?? "") });
  home = mkdtempSync(join(tmpdir(), "troupe-claude-home-"));
});
afterAll(() => {
  server.stop();
  rmSync(home, { recursive: true, force: true });
});
afterEach(async () => {
  spent.clear();
  windows.clear();
  refused.clear();
  allowance.clear();
  server.requests.length = 0;
  await sb?.close();
});

function accountsSandbox(): Sandbox {
  sb = new Sandbox();
  // the spawning environment has an API key: an account's token must replace it
  Object.assign(sb.env, claudeEnv(server.url, home, { PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}`, CLAUDE_CODE_MAX_RETRIES: "1" }));
  sb.env.XDG_STATE_HOME = join(sb.dir, ".user-state");
  return sb;
}

const agentNamed = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);
const tokensSeen = () => server.requests.filter((r) => r.path.startsWith("/v1/messages")).map((r) => requestToken(r.headers));

describe("accounts and failover (real Claude Code)", () => {
  test("a spent account fails the agent over to the next one; no request on the spent token after the switch", async () => {
    accountsSandbox();
    spent.set("tok-spent", Date.now() + 3_600_000);
    const a1 = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-spent", "--name", "first", "--json"]);
    const a2 = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-good", "--name", "second", "--json"]);
    await sb.json(["spawn", "--provider", "claude", "--name", "worker", "--prompt", "Do it.", "--json"]);
    const done = await waitFor("worker to finish", async () => {
      const a = await agentNamed("worker");
      return a && ["done", "failed", "blocked"].includes(a.status) ? a : undefined;
    }, 90_000);
    expect(done).toMatchObject({ status: "done", result: "finished", accountId: a2.id, attempt: 2, failure: { class: "usage_limit", attempt: 1 } });
    const tokens = tokensSeen();
    const switchedAt = tokens.indexOf("tok-good");
    expect(tokens.slice(0, switchedAt)).toContain("tok-spent");
    expect(tokens.slice(switchedAt).filter((t) => t !== "tok-good")).toEqual([]);
    // the spawning environment's ANTHROPIC_API_KEY never reached the API
    expect(server.requests.some((r) => r.headers["x-api-key"] === "test")).toBe(false);

    const accounts = await sb.json<Account[]>(["account", "ls", "--json"]);
    const first = accounts.find((a) => a.id === a1.id)!;
    expect(first.status).toBe("exhausted");
    expect(first.exhaustedUntil).toBeGreaterThan(Date.now() + 3_000_000);
    // a new agent never starts on the spent account
    const before = tokens.length;
    await sb.json(["spawn", "--provider", "claude", "--name", "next", "--prompt", "Do it.", "--json"]);
    expect(await waitFor("next to finish", async () => ((await agentNamed("next"))?.status === "done" ? agentNamed("next") : undefined), 90_000)).toMatchObject({ accountId: a2.id, attempt: 1 });
    expect(tokensSeen().slice(before).filter((t) => t !== "tok-good")).toEqual([]);
    // no secret in what a person or a script reads
    const outputs = [
      (await sb.run(["account", "ls"])).stdout,
      (await sb.run(["account", "ls", "--json"])).stdout,
      (await sb.run(["ls", "--json"])).stdout,
      (await sb.run(["logs", "worker", "--raw"])).stdout,
    ].join("\n");
    expect(outputs).not.toContain("tok-spent");
    expect(outputs).not.toContain("tok-good");
    expect(statSync(join(sb.env.XDG_STATE_HOME!, "troupe", "accounts.json")).mode & 0o777).toBe(0o600);
  }, 150_000);

  test("a refused token makes its account invalid and the agent moves to the next; the person's reset brings it back", async () => {
    accountsSandbox();
    refused.add("tok-revoked");
    const a1 = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-revoked", "--name", "revoked", "--json"]);
    const a2 = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-good", "--name", "good", "--json"]);
    await sb.json(["spawn", "--provider", "claude", "--name", "worker", "--prompt", "Do it.", "--json"]);
    const done = await waitFor("worker to finish", async () => {
      const a = await agentNamed("worker");
      return a && ["done", "failed", "blocked"].includes(a.status) ? a : undefined;
    }, 90_000);
    expect(done).toMatchObject({ status: "done", result: "finished", accountId: a2.id, attempt: 2, failure: { class: "auth", attempt: 1 } });
    const tokens = tokensSeen();
    expect(tokens.slice(tokens.indexOf("tok-good")).filter((t) => t !== "tok-good")).toEqual([]);
    const revoked = (await sb.json<Account[]>(["account", "ls", "--json"])).find((a) => a.id === a1.id)!;
    expect(revoked.status).toBe("invalid");
    expect(revoked.problem).toMatch(/^credential refused .*(401|Invalid bearer token|authentication)/i);
    // the person fixed the token at the provider: reset, and the account is taken again
    refused.delete("tok-revoked");
    expect(await sb.json<Account>(["account", "reset", "revoked", "--json"])).toMatchObject({ id: a1.id, status: "available" });
    await sb.json(["spawn", "--provider", "claude", "--name", "again", "--prompt", "Do it.", "--json"]);
    expect(await waitFor("again to finish", async () => ((await agentNamed("again"))?.status === "done" ? agentNamed("again") : undefined), 90_000)).toMatchObject({ accountId: a1.id, attempt: 1 });
  }, 150_000);

  test("accounts with their own config folders: the session is carried to the next one and resumed there", async () => {
    accountsSandbox();
    const dirA = join(sb.dir, ".acct-a");
    const dirB = join(sb.dir, ".acct-b");
    mkdirSync(dirA);
    mkdirSync(dirB);
    // key-a serves the first turn (the run gets going: a file written), then is spent
    allowance.set("key-a", 1);
    await sb.run(["account", "add", "--provider", "claude", "--name", "a", "--env", `CLAUDE_CONFIG_DIR=${dirA}`, "--env", "CLAUDE_CODE_OAUTH_TOKEN=key-a"]);
    await sb.run(["account", "add", "--provider", "claude", "--name", "b", "--env", `CLAUDE_CONFIG_DIR=${dirB}`, "--env", "CLAUDE_CODE_OAUTH_TOKEN=key-b"]);
    await sb.json(["spawn", "--provider", "claude", "--name", "mover", "--prompt", "Write step1.txt, then finish.", "--json"]);
    const done = await waitFor("mover to finish", async () => {
      const a = await agentNamed("mover");
      return a && ["done", "failed", "blocked"].includes(a.status) ? a : undefined;
    }, 90_000);
    expect(done).toMatchObject({ status: "done", session: 2, failure: { class: "usage_limit", attempt: 1 } });
    // the session file went to b's folder, and the resumed run sent the first run's history
    const carried = readdirSync(join(dirB, "projects"), { recursive: true }).map(String);
    expect(carried).toContainEqual(expect.stringContaining(`${done.providerSessionId}.jsonl`));
    const onB = server.requests.filter((r) => r.kind === "main" && requestToken(r.headers) === "key-b");
    expect(onB.length).toBeGreaterThan(0);
    // (a boolean: the request body is ~100 KB of Claude Code's system prompt)
    expect(JSON.stringify(onB[0]!.body).includes("wrote step 1")).toBe(true);
  }, 150_000);

  test("with its only account spent the agent is blocked until the reset, then finishes by itself", async () => {
    accountsSandbox();
    // far enough ahead that the agent is still blocked when it is looked at, on a loaded machine
    // too (at 8 s, Claude Code's start alone sometimes took the agent past its reset)
    const reset = Date.now() + 20_000;
    spent.set("tok-only", reset);
    await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-only", "--name", "only", "--json"]);
    await sb.json(["spawn", "--provider", "claude", "--name", "patient", "--prompt", "Do it.", "--json"]);
    const blocked = await waitFor("patient to be blocked", async () => {
      const a = await agentNamed("patient");
      return a && a.status !== "starting" && a.status !== "running" ? a : undefined;
    }, 60_000);
    expect(blocked).toMatchObject({ status: "blocked", failure: { class: "usage_limit", attempt: 1 } });
    // the reset the API gave, to the second
    expect(Math.abs(blocked.retryAt! - reset)).toBeLessThan(1_500);
    expect((await sb.run(["ls"])).stdout).toContain("every account spent; resumes at");
    const done = await waitFor("patient to finish by itself", async () => {
      const a = await agentNamed("patient");
      return a && ["done", "failed"].includes(a.status) ? a : undefined;
    }, 90_000);
    expect(done).toMatchObject({ status: "done", attempt: 2 });
    expect(done.updatedAt).toBeGreaterThanOrEqual(reset);
  }, 150_000);

  test("the forecast: an account its window says runs out in 2 minutes is passed over for a 10-minute run and taken for a 1-minute one", async () => {
    accountsSandbox();
    // an hour into its 5-hour window and 96.7 % used: at that pace about 2 minutes are left
    windows.set("tok-short", usageWindowHeaders(0.967, Date.now() + 4 * 3_600_000));
    windows.set("tok-long", usageWindowHeaders(0.1, Date.now() + 4 * 3_600_000));
    const short = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-short", "--name", "short", "--json"]);
    const long = await sb.json<Account>(["account", "add", "--provider", "claude", "--token", "tok-long", "--name", "long", "--json"]);
    const finish = async (name: string, args: string[]) => {
      await sb.json(["spawn", "--provider", "claude", "--name", name, "--prompt", "Do it.", ...args, "--json"]);
      return waitFor(`${name} to finish`, async () => {
        const a = await agentNamed(name);
        return a && ["done", "failed", "blocked"].includes(a.status) ? a : undefined;
      }, 90_000);
    };
    // each account's run reports its windows; "short" is then the least recently used
    expect(await finish("probe", ["--account", "short"])).toMatchObject({ status: "done", accountId: short.id });
    expect(await finish("warm", ["--account", "long"])).toMatchObject({ status: "done", accountId: long.id });
    const seen = await sb.json<Account[]>(["account", "ls", "--json"]);
    const forecast = seen.find((a) => a.id === short.id)!;
    expect(forecast.windows.map((w) => [w.window, w.utilization])).toEqual([["five_hour", 0.967], ["seven_day", 0.4]]);
    expect((forecast.runsOutAt! - Date.now()) / 60_000).toBeGreaterThan(1);
    expect((forecast.runsOutAt! - Date.now()) / 60_000).toBeLessThan(2.2);
    expect(seen.find((a) => a.id === long.id)!.runsOutAt).toBeNull();
    const listed = (await sb.run(["account", "ls"])).stdout;
    expect(listed).toMatch(/short .* available · runs out in ~[12]m\d\ds \(five_hour 97%, seven_day 40%\)/);
    expect(listed).toMatch(/long .* available · lasts to its resets \(five_hour 10%, seven_day 40%\)/);

    expect(await finish("big", ["--expect", "10m"])).toMatchObject({ status: "done", accountId: long.id });
    expect(await finish("small", ["--expect", "1m"])).toMatchObject({ status: "done", accountId: short.id });
    // a window reported used up: exhausted until its reset, never taken, whatever the run's length
    windows.set("tok-short", usageWindowHeaders(1, Date.now() + 3_600_000));
    expect(await finish("last", ["--account", "short"])).toMatchObject({ accountId: short.id });
    const out = (await sb.json<Account[]>(["account", "ls", "--json"])).find((a) => a.id === short.id)!;
    expect(out.status).toBe("exhausted");
    expect(await finish("after", ["--expect", "1m"])).toMatchObject({ status: "done", accountId: long.id });
  }, 240_000);
});
