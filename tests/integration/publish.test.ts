import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Sandbox, waitFor } from "../support/sandbox.ts";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PullRequest } from "../../src/protocol/api-publish.ts";

/** What the fake GitHub got: each request, and the pull requests it holds. */
interface FakeGitHub {
  url: string;
  requests: { method: string; path: string; auth: string | null; body: unknown }[];
  pulls: { number: number; head: string; base: string; title: string; body: string; draft: boolean; html_url: string }[];
  stop(): void;
}

/** A small GitHub REST API on 127.0.0.1: list and create pull requests of acme/widgets. */
function fakeGitHub(): FakeGitHub {
  const requests: FakeGitHub["requests"] = [];
  const pulls: FakeGitHub["pulls"] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const u = new URL(req.url);
      const body = req.method === "POST" ? await req.json() : null;
      // git over http asking for credentials: what would prompt for a user name in a terminal
      if (u.pathname.endsWith("/info/refs")) return new Response("auth needed", { status: 401, headers: { "www-authenticate": 'Basic realm="fake"' } });
      requests.push({ method: req.method, path: `${u.pathname}${u.search}`, auth: req.headers.get("authorization"), body });
      if (req.headers.get("authorization") !== "Bearer s3cret") return Response.json({ message: "Bad credentials" }, { status: 401 });
      if (u.pathname !== "/repos/acme/widgets/pulls") return Response.json({ message: "Not Found" }, { status: 404 });
      if (req.method === "GET") {
        const head = u.searchParams.get("head");
        return Response.json(pulls.filter((p) => `acme:${p.head}` === head).map(({ html_url, number }) => ({ html_url, number })));
      }
      const b = body as { head: string; base: string; title: string; body: string; draft: boolean };
      if (b.title === "boom") return Response.json({ message: "Server Error" }, { status: 500 });
      const number = pulls.length + 1;
      const pull = { ...b, number, html_url: `https://github.example/acme/widgets/pull/${number}` };
      pulls.push(pull);
      return Response.json(pull, { status: 201 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, pulls, stop: () => void server.stop(true) };
}

let sb: Sandbox;
let gh: FakeGitHub;
afterEach(async () => {
  await sb?.close();
  gh?.stop();
});

/**
 * A workspace whose `origin` is a bare repository reached through the GitHub-shaped URL its config
 * names (`insteadOf`: git pushes to the folder, troupe reads owner and repo from the URL), a user
 * config pointing pull requests at the fake, and gh's own config empty (not logged in).
 */
function workspace(opts: { token?: boolean } = {}): { bare: string; env: Record<string, string> } {
  sb = new Sandbox();
  gh = fakeGitHub();
  const bare = join(sb.runtime, "origin.git");
  sb.git("init", "-q", "--bare", "-b", "main", bare);
  sb.git("remote", "add", "origin", "https://github.example/acme/widgets.git");
  sb.git("config", `url.${bare}.insteadOf`, "https://github.example/acme/widgets.git");
  sb.git("push", "-q", "origin", "main");
  const config = JSON.parse(readFileSync(join(sb.runtime, "config", "troupe", "config.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(sb.runtime, "config", "troupe", "config.json"), JSON.stringify({ ...config, github: { host: "github.example", apiUrl: gh.url, ...(opts.token !== false && { token: "s3cret" }) } }));
  mkdirSync(join(sb.runtime, "gh"));
  const env: Record<string, string> = { GH_CONFIG_DIR: join(sb.runtime, "gh"), GH_TOKEN: "", GITHUB_TOKEN: "", GH_ENTERPRISE_TOKEN: "" };
  return { bare, env };
}

/** An agent that commits one file and ends done with a result. */
async function worker(name: string, env: Record<string, string>): Promise<Agent> {
  const script = `printf 'fixed\\n' > fix.txt && git add fix.txt && git commit -qm 'Fix the widget' && troupe signal done --result 'The widget is fixed.'`;
  await sb.json<Agent>(["spawn", "--name", name, "--command", script, "--prompt", "Fix the widget\n\nIt breaks on Mondays.", "--json"], { env });
  return waitFor(`${name} done`, async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === name && a.status === "done"), 30_000);
}

const remoteBranch = (bare: string, branch: string) => Bun.spawnSync(["git", "--git-dir", bare, "rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).stdout.toString().trim();

describe("troupe push and troupe pr", () => {
  test("push, then pr: one pull request with the task's title and body; the branch in origin; the URL on the agent; a second pr finds it", async () => {
    const { bare, env } = workspace();
    await worker("fixer", env);
    const pushed = await sb.run(["push", "fixer"], { env });
    expect(pushed.stderr).toBe("");
    expect(pushed.code).toBe(0);
    expect(pushed.stdout).toContain("pushed troupe/fixer to origin (https://github.example/acme/widgets.git)");
    const head = sb.git("rev-parse", "troupe/fixer").trim();
    expect(remoteBranch(bare, "troupe/fixer")).toBe(head);

    const pr = await sb.json<PullRequest>(["pr", "fixer", "--json"], { env });
    expect(pr).toMatchObject({ url: "https://github.example/acme/widgets/pull/1", number: 1, created: true, via: "api", base: "main", push: { branch: "troupe/fixer", commit: head } });
    expect(gh.pulls).toHaveLength(1);
    const made = gh.pulls[0]!;
    expect(made).toMatchObject({ head: "troupe/fixer", base: "main", title: "Fix the widget", draft: false });
    expect(made.body).toContain("## Task\n\nFix the widget\n\nIt breaks on Mondays.");
    expect(made.body).toContain("## Result\n\nThe widget is fixed.");
    expect(made.body).toMatch(/## Commits\n\n- [0-9a-f]{7,} Fix the widget/);
    expect(gh.requests.every((r) => r.auth === "Bearer s3cret")).toBe(true);

    const agents = await sb.json<Agent[]>(["ls", "--json"]);
    expect(agents.find((a) => a.name === "fixer")?.prUrl).toBe(pr.url);
    expect((await sb.run(["ls"])).stdout).toContain(pr.url);

    const again = await sb.run(["pr", "fixer"], { env });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`pushed troupe/fixer to origin; fixer's pull request #1 is open already: ${pr.url}\n`);
    expect(gh.pulls).toHaveLength(1);
    expect(gh.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  }, 90_000);

  test("a rejected push is one line, exit 1, and no pull request is asked for", async () => {
    const { bare, env } = workspace();
    writeFileSync(join(bare, "hooks", "pre-receive"), "#!/bin/sh\necho 'no pushes today' >&2\nexit 1\n");
    chmodSync(join(bare, "hooks", "pre-receive"), 0o755);
    await worker("blocked", env);
    const r = await sb.run(["pr", "blocked"], { env });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("troupe: origin rejected the push of troupe/blocked (pre-receive hook declined)\n");
    expect(gh.requests.filter((q) => q.method === "POST")).toHaveLength(0);
    expect(remoteBranch(bare, "troupe/blocked")).toBe("");
    expect((await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "blocked")?.prUrl).toBeNull();
  }, 90_000);

  test("a base the remote lacks is said before the push; GitHub refusing after the push says the push stands", async () => {
    const { bare, env } = workspace();
    await worker("based", env);
    const noBase = await sb.run(["pr", "based", "--base", "release"], { env });
    expect(noBase.code).toBe(1);
    expect(noBase.stderr).toBe("troupe: origin has no branch release to open the pull request of troupe/based against: name one with --base\n");
    expect(remoteBranch(bare, "troupe/based")).toBe("");
    const refused = await sb.run(["pr", "based", "--title", "boom"], { env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("troupe: pushed troupe/based to origin, but no pull request was opened: GitHub answered 500 to POST /repos/acme/widgets/pulls: Server Error\n");
    expect(remoteBranch(bare, "troupe/based")).not.toBe("");
    expect(gh.pulls).toHaveLength(0);
  }, 90_000);

  test("a remote that asks for credentials fails at once, never waiting on a prompt", async () => {
    const { env } = workspace();
    await worker("asked", env);
    sb.git("remote", "add", "locked", `${gh.url}/acme/widgets.git`);
    const started = Date.now();
    const r = await sb.run(["push", "asked", "--to", "locked"], { env: { ...env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^troupe: pushing troupe\/asked to locked failed: .*(terminal prompts disabled|Authentication failed).*\n$/);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 90_000);

  test("no remote, no token: one line each, exit 1, nothing pushed", async () => {
    const { bare, env } = workspace({ token: false });
    await worker("lonely", env);
    const noToken = await sb.run(["pr", "lonely"], { env });
    expect(noToken.code).toBe(1);
    expect(noToken.stderr).toStartWith("troupe: no GitHub credentials for github.example: gh is not installed or not logged in");
    expect(noToken.stderr.trim().split("\n")).toHaveLength(1);
    expect(remoteBranch(bare, "troupe/lonely")).toBe("");
    expect(gh.requests).toHaveLength(0);

    const noRemote = await sb.run(["push", "lonely", "--to", "upstream"], { env });
    expect(noRemote.code).toBe(1);
    expect(noRemote.stderr).toBe(`troupe: no git remote 'upstream' in ${sb.dir}; it has origin: name one with --to\n`);
    sb.git("remote", "remove", "origin");
    const none = await sb.run(["pr", "lonely"], { env });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(`troupe: no git remote 'origin' in ${sb.dir}; add one with 'git remote add origin URL'\n`);
  }, 90_000);

  test("gh logged in to the remote's host opens it (its own calls, the body on stdin); gh not logged in leaves it to the API", async () => {
    const { env } = workspace();
    await worker("viagh", env);
    const bin = join(sb.runtime, "bin");
    mkdirSync(bin);
    const log = join(sb.runtime, "gh.log");
    // a stand-in for gh (a real gh cannot be pointed at a plain-http server): logged in, no open pull request, then one made
    writeFileSync(
      join(bin, "gh"),
      [
        "#!/bin/sh",
        `echo "$*" >> ${log}`,
        'case "$1 $2" in',
        '  "auth status") exit 0 ;;',
        '  "pr list") echo "[]" ;;',
        `  "pr create") cat > ${log}.body; echo https://github.example/acme/widgets/pull/9 ;;`,
        "esac",
      ].join("\n"),
    );
    chmodSync(join(bin, "gh"), 0o755);
    const pr = await sb.json<PullRequest>(["pr", "viagh", "--draft", "--title", "By gh", "--json"], { env: { ...env, PATH: `${bin}:${process.env.PATH}` } });
    expect(pr).toMatchObject({ url: "https://github.example/acme/widgets/pull/9", number: 9, created: true, via: "gh" });
    const calls = readFileSync(log, "utf8").trim().split("\n");
    expect(calls[0]).toBe("auth status --hostname github.example");
    expect(calls[1]).toBe("pr list --repo github.example/acme/widgets --head troupe/viagh --state open --json url,number --limit 1");
    expect(calls[2]).toBe("pr create --repo github.example/acme/widgets --head troupe/viagh --base main --title By gh --body-file - --draft");
    expect(readFileSync(`${log}.body`, "utf8")).toContain("## Result\n\nThe widget is fixed.");
    expect(gh.requests).toHaveLength(0);

    // gh there but not logged in (its config folder empty): the API with the config's token
    writeFileSync(join(bin, "gh"), "#!/bin/sh\necho 'You are not logged into any GitHub hosts.' >&2\nexit 1\n");
    await worker("viaapi", env);
    const api = await sb.json<PullRequest>(["pr", "viaapi", "--json"], { env: { ...env, PATH: `${bin}:${process.env.PATH}` } });
    expect(api).toMatchObject({ via: "api", created: true });
    expect(gh.pulls.map((p) => p.head)).toEqual(["troupe/viaapi"]);
  }, 120_000);

  test("troupe initiative pr: the initiative's branch pushed and its pull request kept on it", async () => {
    const { bare, env } = workspace();
    await sb.json(["initiative", "new", "Widgets", "--goal", "Widgets that work on Mondays.", "--json"]);
    // the initiative's branch with a commit of its own (as dispatch's merges would make)
    sb.git("checkout", "-q", "troupe-initiative/widgets");
    writeFileSync(join(sb.dir, "monday.txt"), "ok\n");
    sb.git("add", "monday.txt");
    sb.git("commit", "-qm", "Mondays");
    sb.git("checkout", "-q", "main");
    const r = await sb.run(["initiative", "pr", "widgets"], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("opened pull request #1 into main: https://github.example/acme/widgets/pull/1");
    expect(gh.pulls[0]).toMatchObject({ head: "troupe-initiative/widgets", base: "main", title: "Widgets" });
    expect(gh.pulls[0]!.body).toContain("Widgets that work on Mondays.");
    expect(remoteBranch(bare, "troupe-initiative/widgets")).not.toBe("");
    const init = await sb.json<{ prUrl: string | null }>(["initiative", "show", "widgets", "--json"]);
    expect(init.prUrl).toBe("https://github.example/acme/widgets/pull/1");
  }, 90_000);
});
