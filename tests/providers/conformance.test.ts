/**
 * The contract every provider in the registry keeps, run against each of them (Hono's shared
 * runtime cases are the model): a new provider gets these tests by being registered. Its own
 * test file keeps only what is specific to that CLI.
 */
import { readInputLine } from "../../providers/acp/lines.ts";
import { describe, expect, test } from "bun:test";
import { PROVIDER_NAMES, PROVIDERS, getProvider } from "../../providers/index.ts";
import { PROMPT_ARG_MAX_BYTES } from "../../providers/prompt-arg.ts";
import { buildWithRole } from "../../providers/role.ts";
import type { CommandInput, FailureClass, Provider, ProviderCommand } from "../../providers/types.ts";
import { diagnose, describeFailure } from "../../src/agents/lifecycle/diagnose.ts";
import { withTroupeMcp } from "../../src/agents/start/mcp-config.ts";
import { MCP_MAX_WAIT_SECONDS, MCP_PERMISSION_WAIT_SECONDS } from "../../src/protocol/mcp.ts";
import { TroupeError } from "../../src/errors.ts";
import { withAccount } from "../../src/accounts/env.ts";
import { OutputEventSchema, type Stream } from "../../src/protocol/output.ts";
import { baseInput, fixtureCases, fixtureChunks, loadFixture } from "./fixture-helpers.ts";
import { NOT_JSON_OBJECTS, WRONG_SHAPES, mutations } from "./hostile-lines.ts";

/** A test of a capability the provider has; none is registered for one it lacks (not applicable, not a skip). */
const onlyIf = (has: boolean): typeof test => (has ? test : ((() => {}) as unknown as typeof test));

/**
 * The class the product's own diagnose() gives each recorded run (null: no failure it knows).
 * Every fixture must be listed: recording a new case means saying what it should be.
 */
const EXPECTED_FAILURE: Record<string, Record<string, FailureClass | null>> = {
  claude: {
    success: null,
    resume: null,
    "live-input": null,
    "auth-401": "auth",
    "not-logged-in": "auth",
    "usage-limit": "usage_limit",
    "usage-limit-weekly": "usage_limit",
    "usage-window": null,
    // the per-minute 429 (rate_limit_error) is transient; a spent subscription quota comes with a rejected rate_limit_event
    "rate-limit-429": "rate_limit",
    "credit-low": "usage_limit",
    "no-server": "network",
    "overloaded-529": "overloaded",
    timeout: "timeout",
    // fixed refusals: running again cannot help
    "resume-missing": "setup",
    "root-no-sandbox": "setup",
  },
  codex: {
    success: null,
    resume: null,
    "auth-401": "auth",
    "quota-429": "usage_limit",
    "offline-no-login": "network",
    "offline-api-key": "network",
    // "not inside a trusted directory": a setup mistake, never retried.
    "not-git": "setup",
  },
  gemini: {
    success: null,
    resume: null,
    "auth-400": "auth",
    "no-auth": "auth",
    "quota-429": "usage_limit",
    offline: "network",
    // "folder not trusted" (exit 55): a setup mistake, never retried.
    untrusted: "setup",
  },
  // recorded by scripts/record-chat-fixtures.ts: the same five cases for each
  ...Object.fromEntries(
    ["copilot", "opencode", "qwen", "kilo", "cline", "pi"].map((name) => [
      name,
      {
        success: null,
        ...(name === "cline" ? {} : { resume: null }),
        "auth-401": "auth",
        // a 429 that says the quota is spent, never the per-minute limit
        "quota-429": "usage_limit",
        "no-server": "network",
      } satisfies Record<string, FailureClass | null>,
    ]),
  ),
  // Codex's adapter says of a 429 only "exceeded retry limit, last status: 429 Too Many Requests", not the body that says the quota is spent
  "codex-acp": { success: null, resume: null, "auth-401": "auth", "quota-429": "rate_limit", "no-server": "network" },
};

const STREAMS: readonly Stream[] = ["stdout", "stderr"];
const PERMISSIONS = ["skip", "edits", "plan"] as const;
const LONG = 200 * 1024;

/** Every recorded line of every provider: to each parser but its own, JSON of the wrong shape. */
const ALL_RECORDED = PROVIDERS.flatMap((p) => fixtureCases(p.name).flatMap((name) => {
  const f = loadFixture(p, name);
  return [...f.stdout, ...f.stderr];
}));

function expectValidEvents(p: Provider, line: string, stream: Stream): ReturnType<Provider["parseLine"]> {
  let events: ReturnType<Provider["parseLine"]> = [];
  expect(() => (events = p.parseLine(line, stream)), `${p.name} on ${JSON.stringify(line.slice(0, 80))}`).not.toThrow();
  expect(Array.isArray(events)).toBe(true);
  for (const e of events) {
    const parsed = OutputEventSchema.safeParse(e);
    if (!parsed.success) throw new Error(`${p.name}: invalid event from ${JSON.stringify(line.slice(0, 80))}: ${parsed.error.message}`);
  }
  return events;
}

function input(p: Provider, over: Partial<CommandInput> = {}): CommandInput {
  return { ...baseInput, permissions: "skip", command: p.binary === null ? "./agent.sh" : undefined, ...over };
}

const resumeOf = (p: Provider, over: Partial<CommandInput> = {}) =>
  p.buildResume!({ ...input(p, over), sessionId: p.resumesWithoutSession ? "" : "sess-1234" });

/** How the command hands the CLI its prompt; a prompt in argv must be unmistakably a value. */
function promptRoute(cmd: ProviderCommand, prompt: string, p?: Provider): "stdin" | "env" | "after --" | "--option=" {
  const routes: Array<"stdin" | "env" | "after --" | "--option="> = [];
  if (cmd.stdin === prompt) routes.push("stdin");
  // a CLI taking input mid-run: its stdin a stream of user messages, the prompt the first
  if (cmd.stdinStream && p?.liveInput && cmd.stdin === `${p.liveInput.line(prompt)}\n`) routes.push("stdin");
  if (Object.values(cmd.env ?? {}).includes(prompt)) routes.push("env");
  const at = cmd.argv.indexOf(prompt);
  if (at !== -1) {
    expect(cmd.argv.slice(0, at), "a prompt argument comes after --").toContain("--");
    routes.push("after --");
  }
  if (cmd.argv.some((a) => a.startsWith("--") && a.endsWith(`=${prompt}`) && !a.slice(2, -prompt.length - 1).includes("="))) routes.push("--option=");
  expect(routes, "the prompt reaches the CLI exactly one way").toHaveLength(1);
  return routes[0]!;
}

/** `build` refuses before anything runs: a bad_request in one line naming the CLI and `what`. */
function expectRefused(p: Provider, build: () => unknown, what: string): void {
  let err: unknown;
  try {
    build();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(TroupeError);
  expect((err as TroupeError).code).toBe("bad_request");
  expect((err as Error).message).not.toContain("\n");
  expect((err as Error).message).toContain(what);
  expect((err as Error).message.toLowerCase()).toContain(p.displayName.split(" ")[0]!.toLowerCase());
}

/** The largest single argument or environment string the command would hand the kernel. */
function largestString(cmd: ProviderCommand): number {
  const strings = [...cmd.argv, ...Object.entries(cmd.env ?? {}).map(([k, v]) => `${k}=${v}`)];
  return Math.max(...strings.map((s) => Buffer.byteLength(s)));
}

test("the registry: one list of names, each a provider of that name, once", () => {
  expect(PROVIDERS.map((p) => p.name)).toEqual([...PROVIDER_NAMES]);
  for (const p of PROVIDERS) expect(getProvider(p.name)).toBe(p);
  expect(getProvider("nope")).toBeUndefined();
  // Failure expectations name only providers and cases that exist.
  for (const [name, cases] of Object.entries(EXPECTED_FAILURE)) expect(Object.keys(cases).sort()).toEqual(fixtureCases(name));
});

for (const p of PROVIDERS) {
  describe(`${p.name} keeps the provider contract`, () => {
    test("facts a person is shown", () => {
      expect(p.displayName.length).toBeGreaterThan(0);
      expect(p.install.length).toBeGreaterThan(0);
      // its version: what its version flag prints, or its npm package's (codex-acp has no flag)
      if (p.binary !== null) expect(p.versionArgs.length > 0 || p.npmPackage !== undefined).toBe(true);
    });

    test("account variables: names, and an account's token or folder replaces every credential of the spawning environment", () => {
      const name = /^[A-Z_][A-Z0-9_]*$/;
      for (const v of [p.accountEnv, p.tokenEnv, ...p.credentialEnv]) if (v !== null) expect(v).toMatch(name);
      // a token variable the CLI reads is a credential: the spawning environment's own must go
      if (p.tokenEnv) expect(p.credentialEnv).toContain(p.tokenEnv);
      const shell = Object.fromEntries(p.credentialEnv.map((k) => [k, "from-the-shell"]));
      const account = { id: "acct_x", name: "x", provider: p.name, token: "acct", configDir: "/acct", env: null, exhaustedUntil: null, windows: [], refused: null, lastUsedAt: null, createdAt: 0 };
      for (const kind of ["token", "config-dir"] as const) {
        const env = withAccount(p, { ...account, kind }, { ...shell, PATH: "/bin" });
        expect(Object.values(env)).not.toContain("from-the-shell");
        expect(env.PATH).toBe("/bin");
      }
    });

    test("the parser never throws and gives valid events on every recorded line, its own or another CLI's", () => {
      for (const line of ALL_RECORDED) for (const stream of STREAMS) expectValidEvents(p, line, stream);
    });

    test("a line that is not a JSON object is kept, never dropped, whatever it holds", () => {
      for (const line of NOT_JSON_OBJECTS) for (const stream of STREAMS) expect(expectValidEvents(p, line, stream).length).toBeGreaterThan(0);
    });

    test("JSON of the wrong shape never throws: every field of every recorded line replaced by another type", () => {
      const samples = new Map<string, string>();
      for (const line of ALL_RECORDED) {
        const key = line.match(/"type":"[^"]*"(?:,[^,]*"(?:subtype|role)":"[^"]*")?/)?.[0];
        if (key && !samples.has(key)) samples.set(key, line);
      }
      let n = 0;
      for (const line of [...WRONG_SHAPES, ...[...samples.values()].flatMap(mutations)]) {
        expectValidEvents(p, line, "stdout");
        n++;
      }
      expect(n).toBeGreaterThan(1_000);
    });

    test("a prompt starting with - stays a prompt, on spawn and on resume", () => {
      for (const prompt of ["-", "--help", "-rf --version", "-- -x"]) {
        expect(promptRoute(p.buildSpawn(input(p, { prompt })), prompt, p)).toBeDefined();
        if (p.buildResume) expect(promptRoute(resumeOf(p, { prompt }), prompt, p)).toBeDefined();
      }
    });

    test(`a ${LONG / 1024} KB prompt (or one with a NUL) never goes on the command line`, () => {
      for (const prompt of [`-${"p".repeat(LONG)}`, `${"é".repeat(LONG / 2)}`, "a\0b"]) {
        const build = [() => p.buildSpawn(input(p, { prompt })), ...(p.buildResume ? [() => resumeOf(p, { prompt })] : [])];
        for (const b of build) {
          let cmd: ProviderCommand;
          try {
            cmd = b();
          } catch (err) {
            // A CLI that can take it neither from stdin nor from a file refuses before anything runs.
            expect(err).toBeInstanceOf(TroupeError);
            expect((err as TroupeError).code).toBe("bad_request");
            expect((err as Error).message).toContain("too long");
            continue;
          }
          expect(largestString(cmd)).toBeLessThan(PROMPT_ARG_MAX_BYTES);
          expect(promptRoute(cmd, prompt, p)).toBe("stdin");
        }
      }
    });

    const honoured = PERMISSIONS.filter((m) => p.permissionModes.includes(m));
    test("the modes it honours: skip at least, ask exactly when it routes permissions", () => {
      expect(p.permissionModes).toContain("skip");
      expect(p.permissionModes.includes("ask")).toBe(p.routesPermissions === true);
    });

    test(p.ignoresPermissions ? "permission modes change nothing (it says so)" : "each mode it honours gives a different command", () => {
      const shown = honoured.map((permissions) => {
        const cmd = p.buildSpawn(input(p, { permissions }));
        // an ACP agent's mode is its runner's to set (`session/set_mode`)
        return JSON.stringify({ argv: cmd.argv, env: cmd.env, acp: cmd.acp });
      });
      expect(new Set(shown).size).toBe(p.ignoresPermissions ? 1 : honoured.length);
      if (p.buildResume && !p.ignoresPermissions) {
        expect(new Set(honoured.map((permissions) => JSON.stringify(resumeOf(p, { permissions })))).size).toBe(honoured.length);
      }
    });

    onlyIf(honoured.length < PERMISSIONS.length)("a mode it cannot honour is refused in one line naming the CLI and the mode", () => {
      for (const permissions of PERMISSIONS.filter((m) => !honoured.includes(m))) {
        const builds = [() => p.buildSpawn(input(p, { permissions })), ...(p.buildResume ? [() => resumeOf(p, { permissions })] : [])];
        for (const build of builds) expectRefused(p, build, `--permissions ${permissions}`);
      }
    });

    test(p.routesPermissions ? "ask: every call its rules do not allow goes to troupe's permission tool, nothing skipped" : "ask: refused in one line naming the CLI (its headless mode cannot route a request)", () => {
      const builds = [() => p.buildSpawn(input(p, { permissions: "ask", allowedTools: ["Bash(npm test*)"], deniedTools: ["Bash(rm *)"] })), ...(p.buildResume ? [() => resumeOf(p, { permissions: "ask" })] : [])];
      for (const build of builds) {
        if (!p.routesPermissions) {
          expectRefused(p, build, "ask");
          continue;
        }
        const cmd = build();
        const said = JSON.stringify({ argv: cmd.argv, env: cmd.env });
        // over ACP the runner gets each request (session/request_permission) and asks the daemon
        if (cmd.acp) expect(cmd.acp.permissions).toBe("ask");
        else expect(said).toContain("mcp__troupe__permission");
        expect(said).not.toContain("skip-permissions");
        expect(said).not.toContain("bypass");
        expect(cmd.env?.IS_SANDBOX).toBeUndefined();
        // the daemon applies the rules (and logs what they decide): the CLI gets none of them
        expect(said).not.toContain("npm test");
        expect(said).not.toContain("rm *");
      }
    });

    onlyIf(Boolean(p.buildResume))("resume carries the session id and runs the same CLI", () => {
      const cmd = resumeOf(p);
      if (p.binary) expect(cmd.argv[0]).toBe(p.binary);
      if (!p.resumesWithoutSession) expect(cmd.acp?.load === "sess-1234" || cmd.argv.some((a) => a === "sess-1234" || a.endsWith("=sess-1234"))).toBe(true);
      expect(p.buildSpawn(input(p)).argv).not.toContain("sess-1234");
    });

    onlyIf(Boolean(p.mcp))("troupe's MCP server: configured in the agent's input folder, the prompt untouched, with a long tool timeout", () => {
      const inputDir = "/ws/.troupe/worktrees/ada/.troupe/input";
      for (const build of [() => p.buildSpawn(input(p, { prompt: "-do it" })), ...(p.buildResume ? [() => resumeOf(p, { prompt: "-do it" })] : [])]) {
        const plain = build();
        const { cmd, files } = withTroupeMcp(p, plain, "/opt/troupe/troupe", inputDir, "edits");
        // an ACP agent runs under its runner: `troupe acp-run ... -- AGENT ARGS`
        const agentArgv = plain.acp ? cmd.argv.slice(cmd.argv.indexOf("--") + 1) : cmd.argv;
        if (plain.acp) expect(cmd.argv.slice(0, 2)).toEqual(["/opt/troupe/troupe", "acp-run"]);
        expect(agentArgv[0]).toBe(plain.argv[0]!);
        // inserted right after the executable: the rest, prompt included, is as it was
        expect(agentArgv.slice(-plain.argv.length + 1)).toEqual(plain.argv.slice(1));
        expect(promptRoute(cmd, "-do it", p)).toBe(promptRoute(plain, "-do it", p));
        expect(cmd.stdin).toBe(plain.stdin);
        for (const path of Object.keys(files)) expect(path.startsWith(`${inputDir}/`)).toBe(true);
        // somewhere (argv, env or a file) names troupe's server, its `mcp` command and a limit above the longest wait
        const said = JSON.stringify({ argv: cmd.argv, env: cmd.env, files: Object.values(files) });
        expect(said).toContain("/opt/troupe/troupe");
        expect(said).toContain("mcp");
        // Cline clamps a server's `timeout` (seconds) to 3600: an hour is the longest call it holds (providers/cline.ts)
        if (p.name === "cline") {
          expect(said).toMatch(/\\"timeout\\": 3600\b/);
          continue;
        }
        // the key names the unit (tool_timeout_sec: seconds, else ms); the limit must outlast the person's answer to a permission request
        const limits = [...said.matchAll(/(timeout[_a-z]*)\\?"?[:=]\s*\\?"?(\d+)/gi)].map((m) => Number(m[2]) * (/sec$/i.test(m[1]!) ? 1000 : 1));
        expect(limits.length).toBeGreaterThan(0);
        const ms = Math.max(...limits);
        expect(ms).toBeGreaterThan(MCP_PERMISSION_WAIT_SECONDS * 1000);
        expect(ms).toBeGreaterThan(MCP_MAX_WAIT_SECONDS * 1000);
        expect(ms).toBeLessThan(2 ** 31);
      }
    });

    const cases = fixtureCases(p.name);
    for (const name of cases) {
      const want = EXPECTED_FAILURE[p.name]?.[name];
      test(`recorded run ${name}: diagnose() says ${want ?? "no failure"}`, () => {
        const d = diagnose(p, fixtureChunks(p.name, name));
        expect(d?.failure ?? null).toBe(want ?? null);
        if (d) expect(describeFailure(d)).toContain(`(${d.failure}): `);
      });
    }
  });
}

describe("a profile's instructions (buildWithRole)", () => {
  // an ACP agent's prompt is the text of its first input line (JSON), as its runner sends it
  const stdinText = (cmd: ProviderCommand) => (cmd.acp ? (readInputLine(cmd.stdin?.trim() ?? "")?.text ?? "") : (cmd.stdin ?? ""));
  const count = (cmd: ProviderCommand, s: string) =>
    [...cmd.argv, stdinText(cmd), ...Object.values(cmd.env ?? {})].join("\n").split(s).length - 1;
  for (const p of PROVIDERS) {
    test(`${p.name}: reach the CLI exactly once, as a system prompt when it takes one, else before the prompt`, () => {
      const cmd = buildWithRole(p, { ...baseInput, permissions: "skip", prompt: "THE-TASK", command: p.binary === null ? "true" : undefined, instructions: "-ROLE-MARK" });
      expect(count(cmd, "-ROLE-MARK")).toBe(1);
      expect(count(cmd, "THE-TASK")).toBe(1);
      if (p.takesSystemPrompt) expect(cmd.argv.some((a) => a.includes("THE-TASK") && a.includes("ROLE-MARK"))).toBe(false);
      else expect(count(cmd, "-ROLE-MARK\n\n---\n\nTHE-TASK")).toBe(1);
    });
  }
});
