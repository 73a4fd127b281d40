import { describe, expect, test } from "bun:test";
import { BIN_RUNTIME } from "../support/sandbox.ts";
import { fileSandbox } from "../support/file-sandbox.ts";

const sb = fileSandbox();

describe("the compiled binary's command line", () => {
  test("--version and --help", async () => {
    const v = await sb.run(["--version"]);
    expect(v.code).toBe(0);
    // the version, the build's time, the runtime and the platform
    expect(v.stdout).toMatch(new RegExp(`^troupe \\d+\\.\\d+\\.\\d+ \\(build \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, ${BIN_RUNTIME} \\d+\\.\\d+\\.\\d+, (linux|darwin)-(x64|arm64)\\)\\n$`));
    const json = JSON.parse((await sb.run(["--version", "--json"])).stdout) as { version: string; build: string; runtime: { name: string } };
    expect(v.stdout).toContain(`build ${new Date(Number(json.build)).toISOString()}`);
    expect(json.runtime.name).toBe(BIN_RUNTIME);
    const h = await sb.run(["--help"]);
    expect(h.code).toBe(0);
    for (const cmd of ["spawn", "ls", "logs", "stop", "resume", "ask", "listen", "answer", "signal", "daemon"]) expect(h.stdout).toContain(`  ${cmd}`);
    const sub = await sb.run(["ask", "--help"]);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toStartWith("usage: troupe ask QUESTION");
  });

  test("unknown commands and bad flags: one line, a usage hint, exit 2", async () => {
    const u = await sb.run(["frobnicate"]);
    expect(u.code).toBe(2);
    expect(u.stderr).toBe("troupe: unknown command 'frobnicate'\nusage: troupe --help\n");
    const f = await sb.run(["ls", "--bogus"]);
    expect(f.code).toBe(2);
    expect(f.stderr.split("\n")[0]).toBe("troupe: Unknown option '--bogus'");
    expect(f.stderr).toContain("usage: troupe ls");
    const missing = await sb.run(["ask", "--user"]);
    expect(missing.code).toBe(2);
    const badTimeout = await sb.run(["listen", "--timeout", "soon"]);
    expect(badTimeout.stderr).toBe("troupe: --timeout takes a whole number, not 'soon'\nusage: troupe listen [--timeout MS]\n");
  });

  test("signal outside an agent, and signal with missing text, are clear errors", async () => {
    const outside = await sb.run(["signal", "done"]);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain("TROUPE_AGENT_TOKEN is not set");
    const q = await sb.run(["signal", "questions"], { env: { TROUPE_SIGNAL_FILE: `${sb.dir}/s.json` } });
    expect(q.code).toBe(2);
    expect(q.stderr).toContain("at least one --question");
  });

  test("stop and resume of unknown agents", async () => {
    const s = await sb.run(["stop", "nobody"]);
    expect(s.code).toBe(1);
    expect(s.stderr).toBe("troupe: no agent 'nobody'\n");
    const r = await sb.run(["resume", "nobody", "--message", "hi"]);
    expect(r.stderr).toBe("troupe: no agent 'nobody'\n");
  });
});
