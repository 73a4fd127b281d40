/**
 * troupe installed from the tarballs of `npm run dist`, as a stranger's npm does it (from a
 * stand-in registry serving dist/npm/, tests/support/npm-registry.ts; no network):
 *  - `npm i -g troupe` into an empty prefix: its time and what it leaves on disk;
 *  - `npx troupe --version` from an empty cache (the first run: fetch, unpack, run), then cached;
 *  - what the Node launcher adds to a start: `troupe --version` through it, the binary alone and
 *    `node -e 0` (the floor of any Node launcher), alternating; medians of wall time and of the
 *    CPU the process and its children used. The launcher's cost is (through it) - (binary alone).
 *
 *   npm run dist && bun scripts/bench/install.ts [runs=30]
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PLATFORMS, packageName, platformFor } from "../../src/platforms.ts";
import { MAIN_TARBALL, missingTarballs, platformTarball } from "../../tests/support/dist.ts";
import { startRegistry } from "../../tests/support/npm-registry.ts";
import { load, pct, timeProcess, type Timed } from "./floor.ts";
import { which } from "../../src/runtime/process.ts";
import { runSync } from "../lib/process.ts";

const runs = Number(process.argv[2] ?? 30);
const host = platformFor(process.platform, process.arch);
if (!host) throw new Error(`no troupe binary for ${process.platform}-${process.arch}`);
const missing = missingTarballs();
if (missing.length) throw new Error(`missing ${missing.join(", ")}: run 'npm run dist' first`);

const home = mkdtempSync(join(tmpdir(), "troupe-bench-install-"));
const registry = startRegistry([MAIN_TARBALL, ...PLATFORMS.map(platformTarball)]);
const prefix = join(home, "prefix");
// away from this repository: npx would take its package.json (named troupe) for the package
process.chdir(home);
const env: Record<string, string> = {
  HOME: home,
  PATH: [join(prefix, "bin"), dirname(which("node", process.env.PATH ?? "")!), dirname(which("npm", process.env.PATH ?? "")!), "/usr/bin", "/bin"].join(":"),
  npm_config_registry: registry.url,
  npm_config_userconfig: join(home, ".npmrc"),
  npm_config_update_notifier: "false",
  npm_config_audit: "false",
  npm_config_fund: "false",
  // this machine's environment may carry one (it costs every Node start ~50 ms of CPU): as it is
  ...(process.env.NODE_EXTRA_CA_CERTS ? { NODE_EXTRA_CA_CERTS: process.env.NODE_EXTRA_CA_CERTS } : {}),
};
const ms = (t: number) => `${t.toFixed(1)} ms`;
const s = (t: Timed) => `${(t.wall / 1000).toFixed(1)} s`;
const du = (path: string) => runSync(["du", "-sb", path]).stdout.split("\t")[0];

async function must(argv: string[], extra: Record<string, string> = {}): Promise<Timed> {
  const t = await timeProcess(argv, { ...env, ...extra });
  if (t.code !== 0) throw new Error(`${argv.join(" ")} exited ${t.code}: ${t.stderr}`);
  return t;
}

try {
  console.log(`platform ${host.id}, node ${runSync(["node", "--version"]).stdout.trim()}, ${load()} at the start`);
  const install = await must(["npm", "install", "-g", "--prefix", prefix, "troupe"], { npm_config_cache: join(home, "cache-g") });
  console.log(`npm i -g troupe: ${s(install)}; installed ${(Number(du(prefix)) / 1e6).toFixed(1)} MB in ${prefix} (tarball ${(statSync(platformTarball(host)).size / 1e6).toFixed(1)} MB + ${(statSync(MAIN_TARBALL).size / 1e3).toFixed(1)} kB)`);

  // without the global install on PATH, or npx would run that one
  const npxCache = { npm_config_cache: join(home, "cache-npx"), PATH: env.PATH!.split(":").slice(1).join(":") };
  const first = await must(["npx", "--yes", "troupe", "--version"], npxCache);
  const cached: Timed[] = [];
  for (let i = 0; i < 5; i++) cached.push(await must(["npx", "--yes", "troupe", "--version"], npxCache));
  console.log(`npx troupe --version: first run (empty cache) ${s(first)}; cached ${ms(pct(cached.map((t) => t.wall), 50))} (median of ${cached.length})`);

  const launcher = join(prefix, "bin", "troupe");
  const binary = join(prefix, "lib", "node_modules", "troupe", "node_modules", packageName(host), "bin", "troupe");
  const kinds: [string, string[], Record<string, string>][] = [
    ["node -e 0 (floor)", ["node", "-e", "0"], {}],
    ["binary --version", [binary, "--version"], {}],
    ["launcher --version", [launcher, "--version"], {}],
  ];
  // NODE_EXTRA_CA_CERTS makes Node read and parse a CA bundle at every start: the same without it
  if (env.NODE_EXTRA_CA_CERTS) kinds.push(["  without NODE_EXTRA_CA_CERTS: node -e 0", ["node", "-e", "0"], { NODE_EXTRA_CA_CERTS: "" }], ["  launcher --version", [launcher, "--version"], { NODE_EXTRA_CA_CERTS: "" }]);
  const times = kinds.map((): Timed[] => []);
  for (let i = 0; i < runs + 3; i++) {
    for (const [k, [, argv, extra]] of kinds.entries()) {
      const t = await must(argv, extra);
      if (i >= 3) times[k]!.push(t);
    }
  }
  const med = (k: number, f: (t: Timed) => number) => pct(times[k]!.map(f), 50);
  for (const [k, [label]] of kinds.entries()) console.log(`${label.padEnd(42)} wall median ${ms(med(k, (t) => t.wall))}, p90 ${ms(pct(times[k]!.map((t) => t.wall), 90))}; CPU median ${ms(med(k, (t) => t.cpu))}`);
  console.log(
    `the launcher adds ${ms(med(2, (t) => t.wall) - med(1, (t) => t.wall))} wall, ${ms(med(2, (t) => t.cpu) - med(1, (t) => t.cpu))} CPU to a start ` +
      `(node -e 0: ${ms(med(0, (t) => t.wall))} wall, ${ms(med(0, (t) => t.cpu))} CPU); ${runs} runs each, alternating; ${load()} at the end`,
  );
  if (kinds.length > 3) console.log(`  without NODE_EXTRA_CA_CERTS: adds ${ms(med(4, (t) => t.wall) - med(1, (t) => t.wall))} wall, ${ms(med(4, (t) => t.cpu) - med(1, (t) => t.cpu))} CPU (node -e 0: ${ms(med(3, (t) => t.wall))} wall, ${ms(med(3, (t) => t.cpu))} CPU)`);
} finally {
  registry.stop();
  rmSync(home, { recursive: true, force: true });
}
