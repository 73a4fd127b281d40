import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { Review, ReviewComment, SentReview } from "../../src/protocol/review.ts";

let sb: Sandbox;
afterEach(async () => {
  await sb?.close();
});

/**
 * A scripted agent in its own worktree: its first run commits app.txt (five lines) and ends
 * done; `<name>.edit` there makes it also add a line at the top, uncommitted; every later run
 * writes the prompt it was given to `<name>.prompt` in the exchange folder, and ends done.
 */
const WRITER = (dir: string, name: string) =>
  [
    `n=$(cat ${dir}/${name}.runs 2>/dev/null || echo 0); n=$((n + 1)); echo $n > ${dir}/${name}.runs`,
    `if [ $n -eq 1 ]; then printf 'one\\ntwo\\nthree\\nfour\\nfive\\n' > app.txt && git add app.txt && git commit -qm app; else printf '%s' "$TROUPE_PROMPT" > ${dir}/${name}.prompt; fi`,
    `troupe signal done --result "run $n"`,
  ].join("; ");

const agent = async (name: string) => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name);

async function doneAt(name: string, session: number): Promise<Agent> {
  return waitFor(`${name} done at session ${session}`, async () => {
    const a = await agent(name);
    return a?.status === "done" && a.session === session ? a : undefined;
  });
}

async function spawnWriter(name: string): Promise<Agent> {
  await sb.json<Agent>(["spawn", "--name", name, "--command", WRITER(sb.exchange, name), "--json"]);
  return doneAt(name, 1);
}

describe("troupe diff", () => {
  test("prints the agent's diff as its daemon computes it: the committed change, then the uncommitted one; --json the lines with their numbers", async () => {
    sb = new Sandbox();
    const a = await spawnWriter("differ");
    writeFileSync(join(a.worktree!, "app.txt"), "zero\none\ntwo\nthree\nfour\nfive\n");
    const shown = await sb.run(["diff", "differ"]);
    expect(shown.code, shown.stderr).toBe(0);
    const text = shown.stdout;
    expect(text).toContain("+one\n+two\n+three\n+four\n+five\n");
    expect(text.indexOf("+zero")).toBeGreaterThan(text.indexOf("+five"));
    const lines = await sb.json<{ text: string; kind: string; file?: string; new?: number }[]>(["diff", "differ", "--json"]);
    expect(lines.find((l) => l.text === "+three")).toMatchObject({ kind: "add", file: "app.txt", new: 3 });
    expect(lines.map((l) => `${l.text}\n`).join("")).toBe(text);
    const missing = await sb.run(["diff", "nobody"]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
  });
});

describe("troupe review", () => {
  test("comments on lines of an agent's diff, kept across a kill -9 of the daemon, sent as one message that resumes the agent", async () => {
    sb = new Sandbox();
    const a = await spawnWriter("fixer");
    expect(await sb.json<Review>(["review", "fixer", "--json"])).toEqual({ agentId: a.id, agentName: "fixer", comments: [] });

    const first = await sb.json<{ comments: ReviewComment[] }>(["review", "fixer", "--comment", "app.txt:2", "name this better", "--json"]);
    expect(first.comments).toHaveLength(1);
    expect(first.comments[0]).toMatchObject({ file: "app.txt", side: "new", line: 2, section: "committed", code: "two", state: "current", at: { section: "committed", line: 2 } });
    const second = await sb.run(["review", "fixer", "--comment", "app.txt:5", "and", "this", "one"]);
    expect(second).toMatchObject({ code: 0, stdout: "rc_2 on app.txt:5\n" });

    // kept by the daemon: listed after a kill -9 of it (the next command starts another)
    await sb.killDaemon();
    const listed = await sb.run(["review", "fixer"]);
    expect(listed.stdout).toBe("rc_1  app.txt:2  name this better\nrc_2  app.txt:5  and this one\n");

    const sent = await sb.json<{ sent: SentReview }>(["review", "fixer", "--send", "--message", "two things before merging", "--json"]);
    expect(sent.sent).toMatchObject({ comments: 2, delivery: "resumed", message: { toName: "fixer", fromId: "user" } });
    await doneAt("fixer", 2);
    const prompt = readFileSync(join(sb.exchange, "fixer.prompt"), "utf8");
    // one message naming both places, with the code each is about, the person's word first
    expect(prompt).toContain("Review of your diff by the person: 2 comments on lines of your work.\n\ntwo things before merging\n\n1. app.txt:2\n   > two\n   name this better\n\n2. app.txt:5\n   > five\n   and this one\n");
    expect((await sb.json<Review>(["review", "fixer", "--json"])).comments).toEqual([]);
  }, 60_000);

  test("a running agent's review is queued for it, not a second process: its inbox has it once", async () => {
    sb = new Sandbox();
    const go = join(sb.dir, "go");
    const inbox = join(sb.exchange, "runner.inbox");
    const script = [
      `printf 'one\\ntwo\\n' > app.txt && git add app.txt && git commit -qm app && touch ${sb.exchange}/committed`,
      `while [ ! -f ${go} ]; do sleep 0.05; done`,
      `troupe inbox --json > ${inbox}`,
      `troupe signal done --result read`,
    ].join("; ");
    await sb.json<Agent>(["spawn", "--name", "runner", "--command", script, "--json"]);
    await waitFor("runner's commit", () => existsSync(join(sb.exchange, "committed")));
    await sb.run(["review", "runner", "--comment", "app.txt:1", "while you run"]);
    const sent = await sb.json<{ sent: SentReview }>(["review", "runner", "--send", "--json"]);
    expect(sent.sent).toMatchObject({ delivery: "live", comments: 1, agent: { name: "runner", session: 1 } });
    writeFileSync(go, "");
    const done = await doneAt("runner", 1);
    expect(done.result).toBe("read");
    const got = JSON.parse(readFileSync(inbox, "utf8")) as { id: string; text: string }[];
    expect(got.map((m) => m.id)).toEqual([sent.sent.message.id]);
    expect(got[0]!.text).toContain("1. app.txt:1\n   > one\n   while you run");
    // delivered once: no run is started for it after this one
    await Bun.sleep(1000);
    expect((await agent("runner"))!.session).toBe(1);
  }, 60_000);

  test("a comment follows its line when the agent moves it, and says so when the agent changed it", async () => {
    sb = new Sandbox();
    const a = await spawnWriter("fixer");
    // several at once, each with its text (as a script would)
    const both = await sb.run(["review", "fixer", "--comment", "app.txt:2=about two", "--comment", "app.txt:4=about four"]);
    expect(both).toMatchObject({ code: 0, stdout: "rc_1 on app.txt:2\nrc_2 on app.txt:4\n" });
    // the agent's next commit: a line above both, and four rewritten
    const wt = a.worktree!;
    writeFileSync(join(wt, "app.txt"), "zero\none\ntwo\nthree\nFOUR\nfive\n");
    const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: wt, env: sb.env });
    git("commit", "-qam", "rework");
    expect((await sb.run(["review", "fixer"])).stdout).toBe("rc_1  app.txt:3 (moved from 2)  about two\nrc_2  app.txt:4 (changed since)  about four\n");
    await sb.run(["review", "fixer", "--send"]);
    await doneAt("fixer", 2);
    const prompt = readFileSync(join(sb.exchange, "fixer.prompt"), "utf8");
    expect(prompt).toContain("1. app.txt:3\n   > two\n   about two");
    expect(prompt).toContain("2. app.txt:4 (you have changed this line since the comment was made; it read:)\n   > four\n   about four");
  }, 60_000);

  test("rm takes the agent's pending review with it: nothing of it stays readable in the store's files", async () => {
    sb = new Sandbox();
    await spawnWriter("fixer");
    const words = `review-${crypto.randomUUID()}`;
    expect((await sb.run(["review", "fixer", "--comment", "app.txt:2", words])).code).toBe(0);
    const storeHas = () =>
      ["troupe.db", "troupe.db-wal", "troupe.db-shm"].filter((f) => {
        const p = join(sb.dir, ".troupe", f);
        return existsSync(p) && readFileSync(p).toString("latin1").includes(words);
      });
    expect(storeHas().length).toBeGreaterThan(0);
    expect((await sb.run(["rm", "--force", "fixer"])).code).toBe(0);
    expect(storeHas()).toEqual([]);
  }, 60_000);

  test("a line the diff does not show, an unknown agent, nothing to send, an agent's own token: one line each, non-zero", async () => {
    sb = new Sandbox();
    await spawnWriter("fixer");
    const notShown = await sb.run(["review", "fixer", "--comment", "app.txt:9", "here"]);
    expect(notShown.code).not.toBe(0);
    expect(notShown.stderr.trim().split("\n")).toEqual(["troupe: app.txt:9 is not a line of fixer's diff (it shows lines 1-5 of app.txt; FILE:-LINE names a removed line by its old number)"]);
    const otherFile = await sb.run(["review", "fixer", "--comment", "README.md:1", "here"]);
    expect(otherFile.stderr.trim()).toBe("troupe: README.md is not in fixer's diff; its files: app.txt");
    const header = await sb.run(["review", "fixer", "--comment", "app.txt:0", "here"]);
    expect(header).toMatchObject({ code: 2 });
    expect(header.stderr).toStartWith("troupe: --comment takes FILE:LINE or FILE:LINE=TEXT (FILE:-LINE for a removed line), not 'app.txt:0'\nusage: troupe review");
    const twoBare = await sb.run(["review", "fixer", "--comment", "app.txt:1", "--comment", "app.txt:2", "which?"]);
    expect(twoBare.code).toBe(2);
    expect(twoBare.stderr).toStartWith("troupe: --comment FILE:LINE takes its TEXT after it (one comment), or FILE:LINE=TEXT each\n");
    // text that would reach the agent's prompt cut at a NUL, or past the limit: refused whole
    const api = (body: unknown) =>
      fetch("http://troupe/v1/agents/fixer/review/comments", { unix: sb.socket, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: await r.text() }));
    expect(await api({ file: "app.txt", line: 2, text: "cut\0here" })).toMatchObject({ status: 400, body: expect.stringContaining("NUL") });
    expect((await api({ file: "app.txt", line: 2, text: "x".repeat(8001) })).status).toBe(400);
    const tooLong = await sb.run(["review", "fixer", "--comment", "app.txt:2", "y".repeat(8001)]);
    expect(tooLong.code).not.toBe(0);
    expect(tooLong.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = await sb.run(["review", "nobody"]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
    expect(unknown.stderr).toContain("nobody");
    const empty = await sb.run(["review", "fixer", "--send"]);
    expect(empty.code).not.toBe(0);
    expect(empty.stderr.trim()).toStartWith("troupe: no pending review of fixer");
    // the person reviews: an agent (here with a token of its own) may not
    const tokenFile = join(sb.dir, "peer.token");
    await sb.run(["spawn", "--no-worktree", "--name", "peer", "--command", `printf %s "$TROUPE_AGENT_TOKEN" > ${tokenFile}.tmp && mv ${tokenFile}.tmp ${tokenFile}; exec sleep 30`]);
    const token = await waitFor("peer's token", () => (existsSync(tokenFile) ? readFileSync(tokenFile, "utf8") : undefined));
    const asAgent = await sb.run(["review", "fixer", "--comment", "app.txt:2", "from a peer"], { env: { TROUPE_AGENT_TOKEN: token } });
    expect(asAgent.code).not.toBe(0);
    expect(asAgent.stderr.trim()).toBe("troupe: peer may not comment on the diff of fixer: only the person may");
    expect(existsSync(join(sb.exchange, "fixer.prompt"))).toBe(false);
  }, 60_000);

  test("200 comments on a 50,000-line diff are one reading of it: all stored, exit 0; one refused among them stores none", async () => {
    sb = new Sandbox();
    await sb.json<Agent>(["spawn", "--name", "big", "--command", `seq 1 50000 | sed 's/^/line /' > big.txt && git add big.txt && git commit -qm big && troupe signal done --result ok`, "--json"]);
    await doneAt("big", 1);
    const args = Array.from({ length: 200 }, (_, i) => ["--comment", `big.txt:${(i + 1) * 250}=note ${i + 1}`]).flat();
    const r = await sb.run(["review", "big", ...args]);
    expect(r).toMatchObject({ code: 0, stderr: "" });
    expect(r.stdout.trim().split("\n")).toHaveLength(200);
    const review = await sb.json<Review>(["review", "big", "--json"]);
    expect(review.comments.map((c) => [c.line, c.text, c.state])).toEqual(Array.from({ length: 200 }, (_, i) => [(i + 1) * 250, `note ${i + 1}`, "current"]));
    // the review is full: one more is refused, and the comments of a refused command are not half stored
    const more = await sb.run(["review", "big", "--comment", "big.txt:1=one more"]);
    expect(more.code).not.toBe(0);
    expect(more.stderr.trim()).toBe("troupe: big's review holds 200 comments already: send it (S) first");
    for (const id of ["rc_1", "rc_2"]) expect((await sb.run(["review", "big", "--delete", id])).code).toBe(0);
    const mixed = await sb.run(["review", "big", "--comment", "big.txt:1=fine", "--comment", "big.txt:50001=not a line"]);
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr.trim()).toBe("troupe: big.txt:50001 is not a line of big's diff (it shows lines 1-50000 of big.txt; FILE:-LINE names a removed line by its old number)");
    expect((await sb.json<Review>(["review", "big", "--json"])).comments).toHaveLength(198);
  }, 60_000);
});
