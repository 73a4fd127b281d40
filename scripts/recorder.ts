/**
 * What the fixture recorders share: running a real CLI from node_modules/.bin with a deadline in a
 * fresh temp HOME, and writing what it printed as <case>.stdout.jsonl, <case>.stderr.txt and
 * <case>.meta.json (argv with temp paths hidden, the variables set, exit code or the deadline it
 * was killed at, the requests the fake server saw, and the CLI's version: `recordedWith`).
 */
import { packageVersion } from "../providers/package-version.ts";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { CommandInput, Provider, ProviderCommand } from "../providers/types.ts";
import type { FakeServer } from "./fake-model-servers.ts";
import { killProcessesUnder } from "./stragglers.ts";

export const ROOT = resolve(import.meta.dir, "..");
export const BIN = join(ROOT, "node_modules", ".bin");

export interface RunResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  timedOut: boolean;
}

export async function run(argv: string[], cwd: string, env: Record<string, string>, deadlineMs: number, stdin?: string): Promise<RunResult> {
  // its own process group: a CLI that runs in a child process (Qwen Code) is stopped whole
  const proc = Bun.spawn(argv, { cwd, env, stdin: stdin === undefined ? "ignore" : Buffer.from(stdin), stdout: "pipe", stderr: "pipe", detached: true });
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid, sig);
    } catch {
      // gone already
    }
  };
  let timedOut = false;
  let hardKill: Timer | undefined;
  const timer = setTimeout(() => {
    timedOut = true;
    signal("SIGTERM");
    hardKill = setTimeout(() => signal("SIGKILL"), 5_000);
  }, deadlineMs);
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  const exitCode = await proc.exited;
  clearTimeout(timer);
  clearTimeout(hardKill);
  return { stdout, stderr, exitCode: timedOut ? null : exitCode, timedOut };
}

export function gitRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "README.md"), "# demo\n");
  for (const args of [["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "init"]]) {
    Bun.spawnSync(["git", ...args], { cwd: dir });
  }
  return dir;
}

/** The CLI from node_modules/.bin in place of the bare name a provider builds. */
export function local(cmd: ProviderCommand): string[] {
  const [bin, ...rest] = cmd.argv;
  return [join(BIN, bin!), ...rest];
}

export interface Case {
  name: string;
  description: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  deadlineMs: number;
  /** The prompt, for a CLI that reads it on stdin. */
  stdin?: string;
  server?: FakeServer;
}

export class Recorder {
  readonly tmp = mkdtempSync(join(tmpdir(), "troupe-rec-"));
  constructor(readonly provider: Provider) {
    mkdirSync(this.dir, { recursive: true });
  }
  get dir(): string {
    return join(ROOT, "tests", "fixtures", this.provider.name);
  }
  home(name: string): string {
    const dir = join(this.tmp, name, "home");
    mkdirSync(dir, { recursive: true });
    return dir;
  }
  /** TMPDIR inside the case too: gemini drops error reports there. */
  baseEnv(home: string): Record<string, string> {
    return { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, TMPDIR: home, TERM: "dumb", LANG: "C.UTF-8" };
  }
  async record(c: Case): Promise<RunResult> {
    const result = await run(c.argv, c.cwd, c.env, c.deadlineMs, c.stdin);
    c.server?.stop();
    const hide = (s: string) => s.split(this.tmp).join("$TMP").split(ROOT).join("$ROOT");
    writeFileSync(join(this.dir, `${c.name}.stdout.jsonl`), result.stdout);
    writeFileSync(join(this.dir, `${c.name}.stderr.txt`), result.stderr);
    const meta = {
      case: c.name,
      description: c.description,
      argv: c.argv.map(hide),
      ...(c.stdin !== undefined && { stdin: c.stdin }),
      env: Object.keys(c.env).filter((k) => !["PATH", "TMPDIR", "TERM", "LANG"].includes(k)),
      exitCode: result.exitCode,
      killedAtDeadlineMs: result.timedOut ? c.deadlineMs : undefined,
      fakeServerRequests: c.server?.requests,
      recordedWith: versionOf(this.provider),
    };
    writeFileSync(join(this.dir, `${c.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    const end = result.exitCode ?? `killed after ${c.deadlineMs}ms`;
    process.stderr.write(`${this.provider.name}/${c.name}: exit ${end}\n`);
    return result;
  }
  cleanup(): void {
    killProcessesUnder(this.tmp);
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** What the CLI says its version is, on stdout or (pi) stderr: its first line (Copilot CLI adds a second); its npm package's for one with no version flag (codex-acp). */
export function versionOf(p: Provider, bin = BIN): string {
  if (p.versionArgs.length === 0) return (p.npmPackage && packageVersion(join(bin, p.binary!), p.npmPackage)) || "unknown";
  const out = Bun.spawnSync([join(bin, p.binary!), ...p.versionArgs], { env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" } });
  const text = out.stdout.toString().trim() || out.stderr.toString().trim();
  return text.split("\n")[0]!.trim();
}

export function sessionIdFrom(p: Provider, stdout: string): string | undefined {
  for (const line of stdout.split("\n")) {
    for (const e of p.parseLine(line, "stdout")) if (e.kind === "session") return e.sessionId;
  }
  return undefined;
}

export function input(prompt: string, cwd: string, extra: Partial<CommandInput> = {}): CommandInput {
  return { prompt, cwd, permissions: "skip", env: {}, ...extra };
}
