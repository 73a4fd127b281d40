/**
 * The real Claude Code CLI (from npm) under troupe, offline: a scripted Messages API server on
 * 127.0.0.1 plays the model, the CLI runs real tool calls in its worktree, and ends its runs
 * with `troupe signal` through its Bash tool.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { waitFor } from "../support/sandbox.ts";
import { apiError, bash, findInHistory, lastToolResult, text, turnIndex } from "../support/fake-anthropic.ts";
import { useClaudeTroupe } from "../support/claude-troupe.ts";
import type { Agent } from "../../src/protocol/entities.ts";

const { scripts, server, home, sandbox, ended } = useClaudeTroupe(undefined, { sandboxed: true });

describe("Claude Code under troupe", () => {
  test("edits a file in its worktree, commits, and ends with troupe signal done", async () => {
    const sb = sandbox();
    scripts.set("coder", (req) =>
      [
        [bash(`echo hello > hello.txt && git add hello.txt && git commit -qm "add hello" && echo committed`)],
        [bash(`troupe signal done --result "committed hello.txt"`)],
      ][turnIndex(req)] ?? [text("All done.")],
    );
    await sb.json(["spawn", "--provider", "claude", "--name", "coder", "--prompt", "Add hello.txt and commit it.", "--json"]);
    const a = await ended("coder");
    expect(a).toMatchObject({ status: "done", result: "committed hello.txt", branch: "troupe/coder" });
    expect(a.providerSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.costUsd).toBeGreaterThan(0);
    expect(sb.git("show", "--name-only", "--format=%s", "troupe/coder").trim().split("\n")).toEqual(["add hello", "", "hello.txt"]);
    const logs = (await sb.run(["logs", "coder"])).stdout;
    expect(logs).toContain("git commit");
    expect(logs).toContain("troupe signal done");
    const raw = (await sb.run(["logs", "coder", "--raw"])).stdout;
    expect(raw).toContain('"type":"result"');
  }, 90_000);

  test("network allow: its model API goes through troupe's proxy unnamed; another host is refused, naming it", async () => {
    const sb = sandbox();
    scripts.set("fenced", (req) =>
      [
        [bash(`curl -s -m 5 http://example.invalid/`)],
        [bash(`troupe signal done --result "fenced in"`)],
      ][turnIndex(req)] ?? [text("All done.")],
    );
    await sb.json(["spawn", "--provider", "claude", "--name", "fenced", "--network", "allow", "--prompt", "Fetch example.invalid.", "--json"]);
    expect(await ended("fenced")).toMatchObject({ status: "done", result: "fenced in", sandbox: { sandboxed: true, network: "allow" } });
    // the refusal reached the model as the tool's output
    expect(JSON.stringify(server.mainRequests().at(-1)?.messages)).toContain("troupe sandbox: example.invalid:80 is not in sandbox.allowHosts (network allow)");
    expect((await sb.run(["logs", "fenced"])).stdout).toContain("troupe: sandbox: refused a connection to example.invalid:80");
  }, 90_000);

  test("the person's own Claude sandbox setting on: off inside troupe's, where it could not nest, and its commands run", async () => {
    // with socat and rg (which .ci/run installs), Claude Code's sandbox would switch on, its bubblewrap fail inside troupe's, and the commit with it
    for (const tool of ["socat", "rg"]) if (!Bun.which(tool)) throw new Error(`${tool} is not installed: apt install socat ripgrep`);
    const sb = sandbox();
    const settings = join(home, ".claude", "settings.json");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(settings, JSON.stringify({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true } }));
    try {
      scripts.set("nested", (req) =>
        [
          [bash(`echo inside > inside.txt && git add inside.txt && git commit -qm inside && echo committed`)],
          [bash(`troupe signal done --result "ran inside"`)],
        ][turnIndex(req)] ?? [text("All done.")],
      );
      await sb.json(["spawn", "--provider", "claude", "--name", "nested", "--prompt", "Commit inside.txt.", "--json"]);
      expect(await ended("nested")).toMatchObject({ status: "done", result: "ran inside", sandbox: { sandboxed: true } });
      expect(sb.git("log", "-1", "--format=%s", "troupe/nested").trim()).toBe("inside");
    } finally {
      rmSync(settings, { force: true });
    }
  }, 90_000);

  test("signals questions, is resumed with the answer in the same session, and ends with it", async () => {
    const sb = sandbox();
    scripts.set("asker", (req) => {
      const answer = findInHistory(req, /A: (\w+)/)?.[1];
      if (!answer) return [[bash(`troupe signal questions --question "Which colour should the button be?"`)]][turnIndex(req)] ?? [text("Waiting for an answer.")];
      return [[bash(`troupe signal done --result "button is ${answer}"`)]][turnIndex(req)] ?? [text("Done.")];
    });
    await sb.json(["spawn", "--provider", "claude", "--name", "asker", "--prompt", "Style the button.", "--json"]);
    const waiting = await ended("asker");
    expect(waiting).toMatchObject({ status: "waiting", questions: [{ id: "q1", question: "Which colour should the button be?" }] });
    const r = await sb.run(["resume", "asker", "--answer", "q1=teal"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("asker resumed (session 2)\n");
    await waitFor("asker running again", async () => (await sb.json<Agent[]>(["ls", "--json"]))[0]!.session === 2);
    const done = await ended("asker");
    expect(done).toMatchObject({ status: "done", result: "button is teal", session: 2, providerSessionId: waiting.providerSessionId, questions: null });
    // the resumed run sent the first session's history to the model
    const resumed = server.mainRequests().filter((q) => JSON.stringify(q.messages).includes("A: teal"));
    expect(resumed.length).toBeGreaterThan(0);
    expect(JSON.stringify(resumed[0]!.messages)).toContain("Which colour should the button be?");
  }, 120_000);

  test("two Claude agents talk through troupe ask / listen / answer", async () => {
    const sb = sandbox();
    scripts.set("beta", (req) => {
      const step = turnIndex(req);
      if (step === 0) return [bash("troupe listen --timeout 60000")];
      if (step === 1) {
        const id = /"conversationId":"([^"]+)"/.exec(lastToolResult(req)?.text ?? "")?.[1] ?? "missing";
        return [bash(`troupe answer swordfish --conversation ${id}`)];
      }
      if (step === 2) return [bash(`troupe signal done --result answered`)];
      return [text("Answered.")];
    });
    scripts.set("alpha", (req) => {
      const step = turnIndex(req);
      if (step === 0) return [bash(`troupe ask "What is the secret word?" --to beta --timeout 60000`)];
      if (step === 1) return [bash(`troupe signal done --result "beta said: ${lastToolResult(req)?.text.trim().split("\n").at(-1)}"`)];
      return [text("Asked.")];
    });
    await sb.json(["spawn", "--provider", "claude", "--name", "beta", "--prompt", "Answer questions from other agents.", "--json"]);
    // beta in its listen before alpha asks: a question that came earlier would reach beta's running
    // session as a user message instead, taken only after the listen it is in (see claude-live.test.ts)
    await waitFor("beta's listen", () => server.mainRequests().some((r) => JSON.stringify(r.messages).includes('You are agent \\"beta\\"')), 60_000);
    await Bun.sleep(3000);
    await sb.json(["spawn", "--provider", "claude", "--name", "alpha", "--prompt", "Ask beta for the secret word.", "--json"]);
    const alpha = await ended("alpha");
    const beta = await ended("beta");
    expect(beta).toMatchObject({ status: "done", result: "answered" });
    expect(alpha).toMatchObject({ status: "done", result: "beta said: swordfish" });
    const convs = await sb.json<{ fromName: string; toName: string; answer: string; status: string }[]>(["conversations", "--json"]);
    expect(convs).toEqual([expect.objectContaining({ fromName: "alpha", toName: "beta", answer: "swordfish", status: "answered" })]);
  }, 120_000);

  test("a question to an agent that is done resumes it to answer", async () => {
    const sb = sandbox();
    scripts.set("idle", (req) => {
      const asked = findInHistory(req, /\(conversation (cv_[0-9a-f]+)\)/)?.[1];
      if (!asked) return [[bash(`troupe signal done --result "first task done"`)]][turnIndex(req)] ?? [text("Done.")];
      return [[bash(`troupe answer "it uses sqlite" --conversation ${asked}`)], [bash("troupe signal done --result answered")]][turnIndex(req)] ?? [text("Answered.")];
    });
    await sb.json(["spawn", "--provider", "claude", "--name", "idle", "--prompt", "Do the first task.", "--json"]);
    expect(await ended("idle")).toMatchObject({ status: "done", session: 1 });
    const ask = await sb.run(["ask", "Which database does it use?", "--to", "idle", "--timeout", "60000"]);
    expect(ask).toMatchObject({ code: 0, stdout: "it uses sqlite\n" });
    const after = await waitFor("idle to end its second session", async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"]))[0]!;
      return a.session === 2 && a.status === "done" ? a : undefined;
    });
    expect(after.result).toBe("answered");
  }, 120_000);

  test("a 529 overloaded_error through the CLI's own retries is retried by troupe to success", async () => {
    const sb = sandbox();
    sb.env.CLAUDE_CODE_MAX_RETRIES = "1";
    mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
    writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify({ lifecycle: { retry: { baseDelayMs: 200 } } }));
    // the first run's request and the CLI's one retry of it are refused; troupe's next run is served
    let refused = 0;
    scripts.set("bursty", (req) => {
      if (refused < 2) {
        refused++;
        return apiError(529, "overloaded_error", "Overloaded");
      }
      return [[bash(`troupe signal done --result "through the burst"`)]][turnIndex(req)] ?? [text("Done.")];
    });
    await sb.json(["spawn", "--provider", "claude", "--name", "bursty", "--prompt", "Anything.", "--json"]);
    const a = await waitFor("bursty to finish", async () => {
      const x = (await sb.json<Agent[]>(["ls", "--json"])).find((y) => y.name === "bursty");
      return x && ["done", "failed"].includes(x.status) ? x : undefined;
    }, 90_000);
    expect(a).toMatchObject({ status: "done", result: "through the burst", attempt: 2, session: 2, failure: { class: "overloaded", attempt: 1 } });
    expect(refused).toBe(2);
  }, 120_000);

  test("a run the API refuses fails with the reason, not only a missing signal", async () => {
    const sb = sandbox();
    sb.env.CLAUDE_CODE_MAX_RETRIES = "0";
    scripts.set("locked", () => apiError(401, "authentication_error", "invalid x-api-key"));
    await sb.json(["spawn", "--provider", "claude", "--name", "locked", "--prompt", "Anything.", "--json"]);
    const a = await ended("locked");
    expect(a.status).toBe("failed");
    expect(a.error).toStartWith("not logged in or bad credentials (auth): ");
    expect(a.error).toEndWith("without a signal (the agent must end with 'troupe signal')");
  }, 90_000);
});
