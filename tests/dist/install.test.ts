/**
 * troupe as a stranger gets it (run by `npm run test:dist`): npm installs the packed tarballs
 * from a registry (tests/support/npm-registry.ts serves dist/npm/ as the real one would) into an
 * empty prefix, under an environment with no Bun on PATH, no npm settings of this project and
 * no repository around; then `troupe --version`, a shell agent spawned and listed in a fresh git
 * repository (whose `troupe` is the binary itself, never the Node launcher), the dashboard in
 * tmux, and `npx troupe` from an empty cache.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { PLATFORMS, packageName, platformFor } from "../../src/platforms.ts";
import { DIST_TESTS, MAIN_TARBALL, missingTarballs, platformTarball, unpack } from "../support/dist.ts";
import { startRegistry, type Registry } from "../support/npm-registry.ts";
import { GIT_IDENTITY, Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";

const HOST = platformFor(process.platform, process.arch);
const NPM_MS = 180_000;

let home: string;
let registry: Registry;
let env: Record<string, string>;
let build: string;
let sb: Sandbox;

/** Runs a command of the stranger's shell to its end. */
async function sh(argv: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  const p = Bun.spawn(argv, { cwd: opts.cwd ?? home, env: { ...env, ...opts.env }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}
const troupe = (args: string[]) => sh(["troupe", ...args], { cwd: sb.dir });

/** The packages under an npm prefix's node_modules, nested ones included. */
function packagesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name.startsWith(".")) return [];
    if (name.startsWith("@")) return readdirSync(join(dir, name)).flatMap((sub) => [`${name}/${sub}`, ...packagesUnder(join(dir, name, sub, "node_modules"))]);
    return [name, ...packagesUnder(join(dir, name, "node_modules"))];
  });
}

describe.if(DIST_TESTS && HOST !== undefined)("troupe installed from the tarballs, as a stranger does", () => {
  beforeAll(() => {
    expect(missingTarballs()).toEqual([]);
    home = realpathSync(mkdtempSync(join(tmpdir(), "troupe-stranger-")));
    registry = startRegistry([MAIN_TARBALL, ...PLATFORMS.map(platformTarball)]);
    const main = unpack(MAIN_TARBALL, home);
    build = (JSON.parse(readFileSync(join(main, "package.json"), "utf8")) as { troupe: { build: string } }).troupe.build;
    rmSync(main, { recursive: true });
    // node and npm, git and tmux from the system; nothing of this repository, no Bun
    const PATH = [...new Set([join(home, "prefix", "bin"), dirname(realpathSync(Bun.which("node")!)), dirname(Bun.which("npm")!), "/usr/bin", "/bin"])].join(":");
    env = {
      HOME: home,
      PATH,
      TERM: "xterm-256color",
      LANG: process.env.LANG ?? "C.UTF-8",
      npm_config_registry: registry.url,
      npm_config_cache: join(home, ".npm"),
      npm_config_userconfig: join(home, ".npmrc"),
      npm_config_update_notifier: "false",
      npm_config_audit: "false",
      npm_config_fund: "false",
      ...GIT_IDENTITY,
    };
  });
  afterAll(async () => {
    if (sb) {
      await troupe(["daemon", "stop"]).catch(() => {});
      await sb.close();
    }
    registry?.stop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test(
    "npm i -g: the launcher and this machine's binary, nothing else; troupe --version without Bun",
    async () => {
      expect((await sh(["sh", "-c", "command -v bun"])).code).not.toBe(0);
      const install = await sh(["npm", "install", "-g", "--prefix", join(home, "prefix"), "troupe"]);
      expect(install.stderr).not.toContain("ERR");
      expect(install.code).toBe(0);
      expect(packagesUnder(join(home, "prefix", "lib", "node_modules")).sort()).toEqual([packageName(HOST!), "troupe"].sort());
      const v = await sh(["troupe", "--version"]);
      expect(v).toEqual({ code: 0, stderr: "", stdout: `troupe ${JSON.parse(readFileSync(join(import.meta.dir, "../../package.json"), "utf8")).version} (build ${new Date(Number(build)).toISOString()}, bun ${Bun.version}, ${HOST!.os}-${HOST!.cpu})\n` });
    },
    NPM_MS,
  );

  test("a shell agent in a fresh git repository: spawned, listed, and its troupe is the binary itself", async () => {
    sb = new Sandbox();
    // the stranger's environment only, its sockets in a runtime folder of its own
    for (const k of Object.keys(sb.env)) delete sb.env[k];
    Object.assign(sb.env, env, { XDG_RUNTIME_DIR: sb.runtime, XDG_STATE_HOME: join(sb.runtime, "state"), XDG_CONFIG_HOME: join(sb.runtime, "config") });
    env = sb.env;
    const spawned = await troupe(["spawn", "--name", "helper", "--command", 'echo "troupe is $(command -v troupe)"; troupe signal done --result found', "--json"]);
    expect(spawned.stderr).toBe("");
    expect(spawned.code).toBe(0);
    await waitFor("helper done", async () => {
      const ls = JSON.parse((await troupe(["ls", "--json"])).stdout) as { name: string; status: string; result: string | null }[];
      return ls.length === 1 && ls[0]!.name === "helper" && ls[0]!.status === "done" && ls[0]!.result === "found";
    }, 30_000);
    const logs = await troupe(["logs", "helper"]);
    const seen = /troupe is (\S+)/.exec(logs.stdout)?.[1];
    // the platform package's binary, not the Node launcher (agents never pay its start-up)
    expect(seen).toBe(join(home, "prefix", "lib", "node_modules", "troupe", "node_modules", packageName(HOST!), "bin", "troupe"));
    const table = await troupe(["ls"]);
    expect(table.stdout).toMatch(/helper\s+generic\s+done/);
  }, 60_000);

  test.if(HAVE_TMUX)("the dashboard opens in tmux", async () => {
    const term = new Terminal(sb);
    try {
      term.type("troupe");
      term.keys("Enter");
      const screen = await term.waitFor(/Agents \(1\)/);
      expect(screen).toContain("helper");
      term.keys("q");
      await term.waitForNot(/Agents \(1\)/);
    } finally {
      term.close();
    }
  }, 60_000);

  test(
    "npx troupe from an empty cache",
    async () => {
      const cache = join(home, ".npx-cache");
      const npx = await sh(["npx", "--yes", "troupe", "--version"], { env: { npm_config_cache: cache } });
      expect(npx.stderr).not.toContain("ERR");
      // npx installed the launcher and this machine's package into its cache, and ran that
      const [dir] = readdirSync(join(cache, "_npx"));
      expect(packagesUnder(join(cache, "_npx", dir!, "node_modules")).sort()).toEqual([packageName(HOST!), "troupe"].sort());
      expect(npx.stdout).toStartWith(`troupe `);
      expect(npx.stdout).toContain(`build ${new Date(Number(build)).toISOString()}`);
    },
    NPM_MS,
  );
});
