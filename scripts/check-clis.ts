/**
 * `npm run check:clis [NAME...]`: does troupe still work with the newest release of every agent
 * CLI it knows? For each provider installed from npm: ask the registry for its newest version,
 * install it alone into a temp folder, and run the provider's end-to-end suites against it
 * (TROUPE_CLI_BIN points the tests there). Prints, per CLI, the version pinned in package.json
 * (what troupe was proven with), the newest, pass or what broke, and what the CLI costs a
 * fresh `npm ci` (MB, seconds with npm's cache as it is) and `npm test` (its e2e seconds);
 * exits 1 if anything broke.
 * A pass is the cue to bump the pin and re-record the fixtures (scripts/record-*-fixtures.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PROVIDERS } from "../providers/index.ts";
import type { Provider } from "../providers/types.ts";
import { whatBroke } from "./test-failures.ts";
import { e2eFilesOf } from "./lib/e2e-files.ts";
import { PROVIDER_NAMES } from "../providers/names.ts";

const ROOT = resolve(import.meta.dir, "..");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };

/** Each CLI's end-to-end suites: every e2e file that names it (Claude Code's cover attach, MCP, accounts, permissions, work). */
const suiteOf = (p: Provider) => e2eFilesOf(p.name, readdirSync(join(ROOT, "tests", "e2e")), PROVIDER_NAMES).map((f) => `tests/e2e/${f}`);

interface Outcome {
  name: string;
  pinned: string;
  newest: string;
  verdict: string;
  ok: boolean;
  /** What installing it alone took: its whole dependency tree on disk, and the time (npm's cache as it is). */
  install?: { mb: number; seconds: number };
  /** How long its e2e files took: what it adds to `npm test`. */
  e2eSeconds?: number;
}

async function sh(argv: string[], opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ code: number; out: string }> {
  const proc = Bun.spawn(argv, { cwd: opts.cwd ?? ROOT, env: { ...process.env, ...opts.env }, stdout: "pipe", stderr: "pipe", timeout: opts.timeoutMs ?? 30 * 60_000 });
  const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  return { code: await proc.exited, out: `${out}${err}` };
}

const since = (t: number) => Math.round((performance.now() - t) / 1000);

/** A folder's size on disk in MB (du: what npm ci writes, hard links counted once). */
async function sizeMb(dir: string): Promise<number> {
  const du = await sh(["du", "-sm", dir]);
  return Number(/^(\d+)/.exec(du.out)?.[1] ?? 0);
}

async function check(p: Provider, tmp: string): Promise<Outcome> {
  const done = (o: Omit<Outcome, "name" | "pinned">): Outcome => ({ name: p.name, pinned: pkg.devDependencies[p.npmPackage!] ?? "-", ...o });
  const view = await sh(["npm", "view", p.npmPackage!, "version"]);
  const newest = view.out.trim().split("\n").at(-1) ?? "";
  if (view.code !== 0 || !newest) return done({ newest: "?", verdict: `npm view failed: ${view.out.trim().slice(0, 200)}`, ok: false });
  const prefix = join(tmp, p.name);
  mkdirSync(prefix, { recursive: true });
  const installStart = performance.now();
  const install = await sh(["npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", `${p.npmPackage}@${newest}`]);
  const installed = { mb: await sizeMb(join(prefix, "node_modules")), seconds: since(installStart) };
  const bin = join(prefix, "node_modules", ".bin");
  if (install.code !== 0 || !existsSync(join(bin, p.binary!))) {
    // the line that names the cause (a platform package missing from the registry, a download refused), else npm's last
    const lines = install.out.split("\n").map((l) => l.replace(/^(npm error )+/, "").trim()).filter(Boolean);
    const why = [/No matching version/, /ENOTFOUND|EAI_AGAIN|E404/, /Failed to/].map((re) => lines.find((l) => re.test(l))).find(Boolean) ?? lines.at(-1);
    return done({ newest, verdict: `install failed: ${why?.trim().slice(0, 200)}`, ok: false, install: installed });
  }
  const version = await sh([join(bin, p.binary!), ...p.versionArgs], { timeoutMs: 60_000 });
  if (version.code !== 0) return done({ newest, verdict: `does not start: ${version.out.trim().split("\n")[0]?.slice(0, 200)}`, ok: false, install: installed });
  const testStart = performance.now();
  const test = await sh(["npx", "bun", "test", "--timeout", "600000", ...suiteOf(p)], { env: { TROUPE_CLI_BIN: bin } });
  const measured = { install: installed, e2eSeconds: since(testStart) };
  const passed = /^\s*(\d+) pass$/m.exec(test.out)?.[1];
  const failed = Number(/^\s*(\d+) fail$/m.exec(test.out)?.[1] ?? 0);
  if (test.code === 0 && failed === 0 && Number(passed) > 0) return done({ newest, verdict: `pass (${passed} test${passed === "1" ? "" : "s"})`, ok: true, ...measured });
  return done({ newest, verdict: `FAIL: ${whatBroke(test.out)}`, ok: false, ...measured });
}

const wanted = process.argv.slice(2);
const providers = PROVIDERS.filter((p) => p.npmPackage && (wanted.length === 0 || wanted.includes(p.name)));
if (!existsSync(join(ROOT, "dist", "troupe"))) {
  const build = await sh(["npx", "bun", "scripts/build.ts"]);
  if (build.code !== 0) throw new Error(`build failed: ${build.out}`);
}
const tmp = mkdtempSync(join(tmpdir(), "troupe-check-clis-"));
const outcomes: Outcome[] = [];
try {
  // one at a time: each suite runs a real CLI, and the machine is shared
  for (const p of providers) {
    const o = await check(p, tmp);
    outcomes.push(o);
    const cost = `${o.install ? `install ${o.install.mb} MB ${o.install.seconds}s` : "install -"}, e2e ${o.e2eSeconds ?? "-"}s`;
    process.stdout.write(`${o.name.padEnd(9)} ${p.npmPackage!.padEnd(30)} pinned ${o.pinned.padEnd(9)} newest ${o.newest.padEnd(9)} ${o.verdict} (${cost})\n`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
const bumpable = outcomes.filter((o) => o.ok && o.newest !== o.pinned);
if (bumpable.length) process.stdout.write(`\nnewer and passing, ready to pin: ${bumpable.map((o) => `${o.name} ${o.pinned} → ${o.newest}`).join(", ")}\n`);
process.exit(outcomes.every((o) => o.ok) ? 0 : 1);
