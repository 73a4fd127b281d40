/**
 * `troupe doctor` through the compiled binary, in a sandbox repository, with a PATH made for
 * each case (git or not, a fake agent CLI), a config broken on purpose, a daemon of this build
 * and one of a newer build.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, Sandbox } from "../support/sandbox.ts";
import { PROVIDERS } from "../../providers/index.ts";

let sb: Sandbox;
let bin: string;
let noGit: string;

/** A folder of links to the system's `names` (those it has), and a fake codex. */
function pathWith(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), "troupe-doctor-bin-"));
  for (const name of names) {
    const real = Bun.which(name);
    if (real) symlinkSync(real, join(dir, name));
  }
  writeFileSync(join(dir, "codex"), "#!/bin/sh\necho 'codex-cli 0.169.0'\n");
  chmodSync(join(dir, "codex"), 0o755);
  return dir;
}

interface Report {
  ok: boolean;
  troupe: { version: string; path: string };
  checks: { name: string; ok: boolean; needed: boolean; detail: string }[];
}
async function doctor(env: Record<string, string> = {}, args: string[] = []) {
  const r = await sb.run(["doctor", ...args], { env: { PATH: bin, ...env } });
  const line = (name: string) => r.stdout.split("\n").find((l) => new RegExp(`^(ok  |no  |FAIL) ${name} `).test(l)) ?? "";
  return { ...r, line };
}

beforeAll(() => {
  sb = new Sandbox({ sandboxed: true });
  bin = pathWith(["sh", "git", "tmux"]);
  noGit = pathWith(["sh"]);
});
afterAll(async () => {
  await sb.close();
  rmSync(bin, { recursive: true, force: true });
  rmSync(noGit, { recursive: true, force: true });
});

describe("troupe doctor", () => {
  test("one line per check; exit 0 when what troupe needs is here, optional things said but not counted", async () => {
    const r = await doctor();
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toStartWith("troupe 0.1.0 (build ");
    expect(r.line("git")).toMatch(/^ok   git\s+git version \d+\.\d+/);
    expect(r.line("runtime dir")).toContain(`${sb.runtime} (TROUPE_SOCKET): `);
    expect(r.line("workspace")).toMatch(new RegExp(`^ok   workspace\\s+${sb.dir}: a git repository$`));
    expect(r.line("daemon")).toMatch(/^ok   daemon\s+not running: the first command that needs it starts it$/);
    expect(r.line("codex")).toMatch(/^ok   codex\s+0\.169\.0 \(.*\/codex\)$/);
    expect(r.line("claude")).toMatch(/^no   claude\s+not installed: npm install -g @anthropic-ai\/claude-code$/);
    expect(r.line("systemd")).toMatch(/^(ok  |no  ) systemd /);
    expect(r.line("notify")).toMatch(/^ok   notify\s+no notify.command in .*config\.json \(optional\)$/);
    // no bubblewrap on this PATH: agents would run unsandboxed, said, not counted as a problem
    expect(r.line("sandbox")).toMatch(/^no   sandbox\s+agents run unsandboxed: bubblewrap \(bwrap\) is not installed: apt install bubblewrap \(sandbox mode auto\)/);
    expect(r.stdout).toEndWith("troupe has what it needs here\n");
    // doctor starts nothing
    expect(await sb.daemonPid()).toBeNull();
  });

  test("--json: every check with whether it is needed", async () => {
    const r = await doctor({}, ["--json"]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.ok).toBe(true);
    // the troupe that runs: the build itself (under Deno too, whose execPath is the deno binary)
    expect(realpathSync(report.troupe.path)).toBe(realpathSync(BIN));
    const clis = PROVIDERS.filter((p) => p.binary !== null).map((p) => p.name);
    expect(report.checks.map((c) => c.name)).toEqual(["git", "runtime dir", "workspace", "daemon", "sandbox", ...clis, "tmux", "systemd", "notify"]);
    expect(report.checks.find((c) => c.name === "gemini")).toMatchObject({ ok: false, needed: false });
  });

  test("the sandbox: bubblewrap found and working, or strict without it is a problem", async () => {
    const withBwrap = pathWith(["sh", "git", "bwrap"]);
    try {
      const r = await doctor({ PATH: withBwrap });
      expect(r.line("sandbox")).toMatch(/^ok   sandbox\s+bubblewrap \d+\.\d+\.\d+ \(.*\/bwrap\): each agent runs in a sandbox of its own \(mode auto, network all\)$/);
    } finally {
      rmSync(withBwrap, { recursive: true, force: true });
    }
    mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
    writeFileSync(join(sb.dir, ".troupe", "config.json"), JSON.stringify({ sandbox: { mode: "strict" } }));
    try {
      const strict = await doctor();
      expect(strict.code).toBe(1);
      expect(strict.line("sandbox")).toMatch(/^FAIL sandbox\s+sandbox mode strict, but bubblewrap \(bwrap\) is not installed: apt install bubblewrap: every spawn is refused$/);
    } finally {
      rmSync(join(sb.dir, ".troupe", "config.json"));
    }
  });

  test("no git: FAIL and exit 1", async () => {
    const r = await doctor({ PATH: noGit });
    expect(r.code).toBe(1);
    expect(r.line("git")).toMatch(/^FAIL git\s+not found on PATH: install git \(2\.17 or newer\)/);
    expect(r.stdout).toEndWith("1 problem: git\n");
  });

  test("the socket folder: made 0700 by troupe, and a socket path too long for a Unix socket", async () => {
    const xdg = join(sb.runtime, "xdg");
    mkdirSync(join(xdg, "troupe"), { recursive: true, mode: 0o755 });
    chmodSync(join(xdg, "troupe"), 0o755);
    const r = await doctor({ TROUPE_SOCKET: "", XDG_RUNTIME_DIR: xdg });
    expect(r.line("runtime dir")).toMatch(new RegExp(`^ok   runtime dir\\s+${xdg}/troupe: 0700, yours$`));
    expect(statSync(join(xdg, "troupe")).mode & 0o777).toBe(0o700);
    const long = await doctor({ TROUPE_SOCKET: `/tmp/${"x".repeat(120)}/d.sock` });
    expect(long.code).toBe(1);
    expect(long.line("runtime dir")).toContain("is longer than 107 bytes");
  });

  test("a broken workspace config and a notify command that cannot run are problems", async () => {
    const config = join(sb.dir, ".troupe", "config.json");
    const user = join(sb.runtime, "config", "troupe");
    mkdirSync(join(sb.dir, ".troupe"), { recursive: true });
    mkdirSync(user, { recursive: true });
    try {
      writeFileSync(config, '{"worktree": {"keepDays": "soon"}}');
      writeFileSync(join(user, "config.json"), JSON.stringify({ notify: { command: "notify-nowhere --title troupe" } }));
      const r = await doctor();
      expect(r.code).toBe(1);
      expect(r.line("workspace")).toMatch(/^FAIL workspace\s+.*config\.json: worktree\.keepDays: /);
      expect(r.line("notify")).toMatch(/^FAIL notify\s+notify\.command runs 'notify-nowhere', which is not on PATH/);
      expect(r.stdout).toEndWith("2 problems: workspace, notify\n");
      writeFileSync(config, '{"worktree": {"keepDays": 3}}');
      writeFileSync(join(user, "config.json"), JSON.stringify({ notify: { command: "git --version", desktop: "osc9" } }));
      const fixed = await doctor();
      expect(fixed.code).toBe(0);
      expect(fixed.line("workspace")).toEndWith("a git repository; .troupe/config.json is valid");
      expect(fixed.line("notify")).toMatch(/^ok   notify\s+notify\.command runs \/.*git; desktop notifications: osc9$/);
    } finally {
      rmSync(config, { force: true });
      rmSync(join(user, "config.json"), { force: true });
    }
  });

  test("the daemon: this build's is fine, a newer build's refuses this troupe", async () => {
    expect((await sb.run(["daemon", "start"])).code).toBe(0);
    const pid = await sb.daemonPid();
    expect((await doctor()).line("daemon")).toMatch(new RegExp(`^ok   daemon\\s+pid ${pid}, serving since `));
    await sb.run(["daemon", "stop"]);
    // a build stamped later than any real one
    expect((await sb.run(["daemon", "start"], { env: { TROUPE_TEST_BUILD_VERSION: "0.1.0+99999999999999" } })).code).toBe(0);
    const newer = await doctor();
    expect(newer.code).toBe(1);
    expect(newer.line("daemon")).toContain("runs troupe 0.1.0+99999999999999, newer than this");
    await sb.run(["daemon", "stop"]);
  });

  test("a daemon that does not answer (SIGSTOP) is a problem, said within seconds", async () => {
    expect((await sb.run(["daemon", "start"])).code).toBe(0);
    const pid = (await sb.daemonPid())!;
    process.kill(pid, "SIGSTOP");
    try {
      const r = await doctor();
      expect(r.code).toBe(1);
      expect(r.line("daemon")).toMatch(new RegExp(`^FAIL daemon\\s+pid ${pid} holds the workspace but does not answer within 5 s \\(stopped or stuck\\)`));
    } finally {
      process.kill(pid, "SIGCONT");
    }
    await sb.run(["daemon", "stop"]);
  }, 30_000);
});
