/**
 * Hostile files against the compiled binary: what an agent (or a merged branch) can leave where
 * the daemon reads, clears or creates. Each case prints its outcome and the daemon's health and
 * memory around it; the script exits 1 when an invariant broke:
 *
 * - signal: a FIFO, a /dev/zero link, a link out, a folder or 100 MB at an agent's signal path
 *   fails that agent with a clear reason; a result planted in another agent's signal file never
 *   counts; a second signal is refused and the first stands; a link planted as `.troupe/output`
 *   makes the daemon delete and create nothing outside (its resume is refused);
 * - config, include: a FIFO, a /dev/zero link or 50 MB as `.troupe/config.json` or
 *   `.worktreeinclude` refuses spawns with one line, and `health` keeps answering fast;
 * - every case: the daemon answers `health` within 2 s and grows by less than 200 MB.
 *
 * Usage: npm run build && bun scripts/stress/hostile-files.ts [--runs 1]
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";
import { api, flags, numberFlag, tempWorkspace, troupe, type StressWorkspace } from "./workspace.ts";

type Agent = { name: string; status: string; result: string | null; error: string | null };

const HEALTH_MS = 2_000;
const GROWTH_BYTES = 200 * 1024 * 1024;
const failures: string[] = [];
const check = (ok: boolean, what: string) => ok || failures.push(what);

const mkfifo = (p: string) => runSync(["mkfifo", p]).exitCode === 0 || failures.push(`mkfifo ${p}`);
const sparse = (p: string, bytes: number) => (writeFileSync(p, ""), truncateSync(p, bytes));

async function agents(ws: StressWorkspace): Promise<Agent[]> {
  return (await api<{ agents: Agent[] }>(ws, "GET", "/v1/agents")).body.agents;
}

async function settled(ws: StressWorkspace, name: string, ms = 30_000): Promise<Agent | null> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) {
    const a = (await agents(ws)).find((x) => x.name === name);
    if (a && !["running", "starting"].includes(a.status)) return a;
  }
  return null;
}

async function daemonRss(ws: StressWorkspace): Promise<number> {
  const pid = (JSON.parse((await troupe(ws, ["daemon", "status", "--json"])).stdout) as { pid?: number }).pid;
  const m = pid ? /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8")) : null;
  return m ? Number(m[1]) * 1024 : 0;
}

/** `health` round trip in ms, or Infinity past the deadline. */
async function healthMs(ws: StressWorkspace): Promise<number> {
  const t0 = performance.now();
  const r = await Promise.race([api(ws, "GET", "/v1/health").then(() => true), sleep(HEALTH_MS).then(() => false)]);
  return r ? performance.now() - t0 : Infinity;
}

/** Runs one case, then checks the daemon is still healthy and did not bloat. */
async function caseOf(ws: StressWorkspace, name: string, body: () => Promise<string>): Promise<void> {
  const before = await daemonRss(ws);
  const t0 = performance.now();
  let outcome: string;
  try {
    outcome = await body();
  } catch (err) {
    outcome = `threw: ${(err as Error).message}`;
    failures.push(`${name}: ${outcome}`);
  }
  const health = await healthMs(ws);
  const grew = (await daemonRss(ws)) - before;
  check(health < HEALTH_MS, `${name}: health took more than ${HEALTH_MS} ms`);
  check(grew < GROWTH_BYTES, `${name}: the daemon grew by ${(grew / 1024 / 1024).toFixed(0)} MB`);
  const figures = `${((performance.now() - t0) / 1000).toFixed(1)} s, health ${health.toFixed(0)} ms, rss ${grew >= 0 ? "+" : ""}${(grew / 1024 / 1024).toFixed(1)} MB`;
  console.log(`${name.padEnd(34)} ${outcome.slice(0, 110).padEnd(110)} ${figures}`);
}

async function signalCases(ws: StressWorkspace): Promise<void> {
  const planted: [string, string][] = [
    ["fifo", 'mkfifo "$TROUPE_SIGNAL_FILE"'],
    ["zero", 'ln -s /dev/zero "$TROUPE_SIGNAL_FILE"'],
    ["stolen", 'ln -s "$TROUPE_WORKSPACE/README.md" "$TROUPE_SIGNAL_FILE"'],
    ["folder", 'mkdir "$TROUPE_SIGNAL_FILE"'],
    ["huge", 'truncate -s 100M "$TROUPE_SIGNAL_FILE"'],
  ];
  for (const [name, setup] of planted) {
    await caseOf(ws, `signal: ${name}`, async () => {
      await troupe(ws, ["spawn", "--no-worktree", "--name", `sig-${name}`, "--command", `${setup}; exit 0`]);
      const a = await settled(ws, `sig-${name}`);
      check(a?.status === "failed" && !!a.error?.startsWith("signal file refused: "), `signal ${name}: ${JSON.stringify(a)}`);
      return `${a?.status}: ${a?.error}`;
    });
  }
  await caseOf(ws, "signal: planted in another's file", async () => {
    const go = join(ws.dir, "go-victim");
    await troupe(ws, ["spawn", "--no-worktree", "--name", "victim", "--command", `while [ ! -f ${go} ]; do sleep 0.05; done; exit 0`]);
    const file = join(ws.dir, ".troupe/agents/victim/output/signal.json");
    for (let i = 0; i < 200 && !existsSync(join(file, "..")); i++) await sleep(25);
    await troupe(ws, ["spawn", "--no-worktree", "--name", "planter", "--command", `printf '{"status":"done","result":"planted"}' > ${file}; troupe signal done`]);
    await settled(ws, "planter");
    writeFileSync(go, "");
    const v = await settled(ws, "victim");
    check(v?.status === "failed" && v.result !== "planted", `planted: ${JSON.stringify(v)}`);
    return `${v?.status}: ${v?.error}`;
  });
  await caseOf(ws, "signal: a second one", async () => {
    await troupe(ws, ["spawn", "--no-worktree", "--name", "twice", "--command", "troupe signal done --result first; troupe signal error --error second 2> second.err; echo $? >> second.err"]);
    const a = await settled(ws, "twice");
    const err = readFileSync(join(ws.dir, "second.err"), "utf8");
    check(a?.status === "done" && a.result === "first" && err.trim().endsWith("1"), `second signal: ${JSON.stringify(a)} ${err}`);
    return `${a?.status} ${a?.result}; the second: ${err.replace(/\n/g, " ").trim()}`;
  });
  await caseOf(ws, "signal: .troupe/output a link, resumed", async () => {
    const victim = join(ws.dir, "..", `${ws.dir.split("/").pop()}-victim`);
    mkdirSync(join(victim, "signal.json"), { recursive: true });
    writeFileSync(join(victim, "signal.json", "precious"), "keep");
    try {
      await troupe(ws, ["spawn", "--name", "linker", "--command", `rm -rf .troupe/output; ln -s ${victim} .troupe/output; troupe signal done; exit 0`]);
      await settled(ws, "linker");
      const r = await troupe(ws, ["resume", "linker", "--message", "again"]);
      const kept = existsSync(join(victim, "signal.json", "precious"));
      check(r.code !== 0 && kept, `link: resume ${r.code}, victim kept ${kept}`);
      return `resume exit ${r.code} (${r.stderr.trim()}); outside kept: ${kept}`;
    } finally {
      rmSync(victim, { recursive: true, force: true });
    }
  });
}

async function repositoryCases(ws: StressWorkspace): Promise<void> {
  const kinds: [string, (p: string) => unknown][] = [
    ["fifo", mkfifo],
    ["/dev/zero", (p) => symlinkSync("/dev/zero", p)],
    ["50 MB", (p) => sparse(p, 50 * 1024 * 1024)],
  ];
  let n = 0;
  for (const file of [".worktreeinclude", ".troupe/config.json"]) {
    for (const [kind, plant] of kinds) {
      const path = join(ws.dir, file);
      await caseOf(ws, `${file}: ${kind}`, async () => {
        plant(path);
        try {
          const t0 = performance.now();
          const r = await Promise.race([troupe(ws, ["spawn", "--name", `repo-${++n}`, "--command", "troupe signal done"]), sleep(10_000).then(() => null)]);
          check(r !== null && r.code === 1 && r.stderr.startsWith(`troupe: ${path}`), `${file} ${kind}: ${JSON.stringify(r)}`);
          return r ? `exit ${r.code} in ${(performance.now() - t0).toFixed(0)} ms: ${r.stderr.trim()}` : "no answer in 10 s";
        } finally {
          rmSync(path, { force: true });
        }
      });
    }
  }
}

const f = flags(process.argv.slice(2));
const runs = numberFlag(f, "runs", 1);
for (let i = 1; i <= runs; i++) {
  const ws = tempWorkspace("hostile");
  try {
    console.log(`run ${i}: ${ws.dir}`);
    await troupe(ws, ["daemon", "start"]);
    await signalCases(ws);
    await repositoryCases(ws);
    for (const a of await agents(ws)) if (["running", "starting"].includes(a.status)) await troupe(ws, ["stop", a.name]);
  } finally {
    await ws.remove();
  }
}
for (const fail of failures) console.log(`  ! ${fail}`);
console.log(failures.length ? `${failures.length} invariant(s) broke` : "every invariant held");
process.exit(failures.length ? 1 : 0);
