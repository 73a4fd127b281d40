import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { providerNamed } from "../../src/agents/start/provider-named.ts";
import { resolveSandbox } from "../../src/sandbox/policy.ts";
import { sandboxSession } from "../../src/sandbox/session.ts";
import type { ProviderCommand } from "../../providers/types.ts";
import { Sandbox } from "../support/sandbox.ts";

/**
 * One session's command in its sandbox, for the CLIs that have a sandbox of their own: it is off
 * inside troupe's (it could not nest there), and troupe's own enforces the mode. Needs bubblewrap.
 */
const sb = new Sandbox();
afterAll(() => sb.close());

function wrapped(provider: string, argv: string[], network: "all" | "allow" = "all", modelEnv: Record<string, string> = {}): string[] {
  const cmd: ProviderCommand = { argv };
  const where = { modelEnv, agentId: "ag_test", root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, cwd: sb.dir, worktree: null, agentDir: join(sb.dir, ".troupe", "agents", "a"), worker: false, permissions: "skip" as const, env: { PATH: process.env.PATH!, HOME: "/nonexistent" }, binDir: "/usr/bin", self: ["/usr/bin/troupe"], provider: providerNamed(provider) };
  return sandboxSession(cmd, resolveSandbox([{ from: "the spawn", config: { network }, trusted: true }]), where).cmd.argv;
}

/** What bwrap sets inside, as `NAME=value`. */
const setenv = (argv: string[]) => argv.flatMap((a, i) => (a === "--setenv" ? [`${argv[i + 1]}=${argv[i + 2]}`] : []));
const agentArgv = (argv: string[]) => argv.slice(argv.lastIndexOf("--") + 1);

describe("a CLI's own sandbox inside troupe's", () => {
  test("Claude Code's is turned off by its --settings, Gemini's and Qwen's by their variable, Codex's by its config", () => {
    expect(agentArgv(wrapped("claude", ["claude", "-p"]))).toEqual(["claude", '--settings={"sandbox":{"enabled":false}}', "-p"]);
    expect(setenv(wrapped("gemini", ["gemini", "--acp"]))).toContain("GEMINI_SANDBOX=false");
    expect(setenv(wrapped("qwen", ["qwen", "--acp"]))).toContain("QWEN_SANDBOX=false");
    expect(agentArgv(wrapped("codex", ["codex", "exec", "-c", 'sandbox_mode="workspace-write"', "hi"]))).toEqual(["codex", "exec", "-c", 'sandbox_mode="danger-full-access"', "hi"]);
    // a CLI without one is run as it is
    expect(agentArgv(wrapped("generic", ["sh", "-c", "true"]))).toEqual(["sh", "-c", "true"]);
  });

  test("network allow: the proxy outside bwrap, the bridge inside before the CLI, its model API allowed", () => {
    const argv = wrapped("claude", ["claude", "-p"], "allow");
    const socket = join(sb.runtime, "d.net", "ag_test", "proxy.sock");
    // started with the runtime's quiet settings, so that it need not start itself again for them
    expect(argv[0]).toBe("/usr/bin/env");
    expect(argv.find((a) => a.startsWith("TROUPE_QUIET_ADDED="))).toBeDefined();
    const proxy = argv.indexOf("/usr/bin/troupe");
    expect(argv.slice(proxy, proxy + 7)).toEqual(["/usr/bin/troupe", "sandbox-net", "proxy", "--socket", socket, "--allow=api.anthropic.com:443", "--"]);
    expect(argv[proxy + 7]).toMatch(/\/bwrap$/);
    expect(argv).toContain("--unshare-net");
    const bridge = argv.indexOf("bridge");
    expect(argv.slice(bridge - 2, bridge + 4)).toEqual(["/usr/bin/troupe", "sandbox-net", "bridge", "--socket", socket, "--"]);
  });

  test("network allow opens the model API of the person's environment, never a URL the agent's own spawn carries", () => {
    const proxyArgs = (argv: string[]) => argv.filter((a) => a.startsWith("--allow="));
    // the person's ANTHROPIC_BASE_URL (a gateway of theirs) is the API's host
    expect(proxyArgs(wrapped("claude", ["claude", "-p"], "allow", { ANTHROPIC_BASE_URL: "https://gw.example.com" }))).toEqual(["--allow=gw.example.com:443"]);
    // the session's own env is not where it is read: a worker's, from an agent's spawn, says nothing
    const cmd: ProviderCommand = { argv: ["claude", "-p"] };
    const where = { modelEnv: {}, agentId: "ag_w", root: sb.dir, stateDir: join(sb.dir, ".troupe"), socket: sb.socket, cwd: sb.dir, worktree: null, agentDir: join(sb.dir, ".troupe", "agents", "w"), worker: true, permissions: "skip" as const, env: { PATH: process.env.PATH!, HOME: "/nonexistent", ANTHROPIC_BASE_URL: "http://evil.example.com" }, binDir: "/usr/bin", self: ["/usr/bin/troupe"], provider: providerNamed("claude") };
    const argv = sandboxSession(cmd, resolveSandbox([{ from: "the spawn", config: { network: "allow" }, trusted: true }]), where).cmd.argv;
    expect(proxyArgs(argv)).toEqual(["--allow=api.anthropic.com:443"]);
    // a host that looks like a flag stays the value of --allow
    const odd = sandboxSession(cmd, resolveSandbox([{ from: "the spawn", config: { network: "allow", allowHosts: ["--socket"] }, trusted: true }]), where).cmd.argv;
    expect(proxyArgs(odd)).toEqual(["--allow=--socket", "--allow=api.anthropic.com:443"]);
  });
});
