/**
 * Issue 32, item 2: nothing an agent, a repository or a remote wrote reaches the person's terminal
 * as an escape. Agents print, signal, ask, send and commit (a file name) a title-setting OSC, a
 * clear-screen CSI, the C1 CSI (U+009B) and a bidi override; every human-facing output of the
 * built CLI (ls, logs and logs -f, review, conversations, inbox, error lines, a remote's HELLO)
 * carries none of them, and still says what it says. `--json` and `logs --raw` stay as they are.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import { FRAME, GREETING, jsonFrame } from "../../src/client/link/frames.ts";
import { API_VERSION } from "../../src/protocol/api/index.ts";
import { BIN, Sandbox, waitFor, type RunResult } from "../support/sandbox.ts";

/** For printf in an agent's shell: OSC 0 (the window title), CSI 2J (clear), C1 CSI, RIGHT-TO-LEFT OVERRIDE. */
const EVIL = String.raw`\033]0;PWNED\007\033[2J\302\2332J\342\200\256`;
/** ESC, any C1 control, and the bidi controls: what must never reach a terminal. */
const HOSTILE = /[\x1b\x80-\x9f\u202a-\u202e\u2066-\u2069]/g;
const hostile = (r: RunResult | string) => ((typeof r === "string" ? r : r.stdout + r.stderr).match(HOSTILE) ?? []).length;

let sb: Sandbox;
beforeAll(async () => {
  sb = new Sandbox();
  await sb.run(["daemon", "start"]);
});
afterAll(async () => {
  await sb.close();
});

async function ended(name: string): Promise<Agent> {
  return waitFor(
    `${name} to end`,
    async () => {
      const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === name);
      return a && ["done", "failed"].includes(a.status) ? a : undefined;
    },
    30_000,
  );
}

async function spawn(name: string, script: string): Promise<void> {
  const r = await sb.run(["spawn", "--name", name, "--command", script]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
}

describe("an agent's escapes never reach the terminal", () => {
  beforeAll(async () => {
    // what the issue ran, and output on both streams
    await spawn("evil", `printf "out ${EVIL} end\\n"; printf "err ${EVIL} end\\n" >&2; troupe signal error --error "$(printf "bad ${EVIL} end")"`);
    await ended("evil");
  });

  test("troupe ls (its DETAIL is the agent's error); --json keeps the error as signalled", async () => {
    const r = await sb.run(["ls"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("bad");
    expect(hostile(r)).toBe(0);
    const evil = (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "evil")!;
    expect(evil.error).toContain("\x1b]0;PWNED\x07");
  });

  test("troupe logs, its text and the failure line after it; --raw keeps the bytes", async () => {
    const r = await sb.run(["logs", "evil"]);
    expect(r.stdout).toContain("out");
    expect(r.stdout).toContain("err");
    expect(r.stderr).toContain("bad");
    expect(hostile(r)).toBe(0);
    // troupe's own colours stay: only escapes of troupe's making are written
    const coloured = await sb.run(["logs", "evil"], { env: { NO_COLOR: "", FORCE_COLOR: "1" } });
    expect(coloured.stdout.replace(/\x1b\[(?:2|22|31|36|39)m/g, "")).toBe(r.stdout);
    expect(hostile(coloured.stderr)).toBe(0);
    const raw = await sb.run(["logs", "evil", "--raw"]);
    expect(raw.stdout).toContain("\x1b]0;PWNED\x07\x1b[2J");
  });

  test("troupe logs -f, following what the agent prints while it runs", async () => {
    const go = join(sb.runtime, "go");
    await spawn("live", `echo ready; while [ ! -e ${go} ]; do sleep 0.05; done; printf "after ${EVIL} end\\n"; printf "err ${EVIL}\\n" >&2; troupe signal error --error "$(printf "bad ${EVIL}")"`);
    const p = Bun.spawn([BIN, "logs", "-f", "live"], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" });
    const stderr = new Response(p.stderr).text();
    let out = "";
    const reader = p.stdout.getReader();
    const decoder = new TextDecoder();
    await waitFor("logs -f to show the first line", async () => {
      const { value, done } = await reader.read();
      if (value) out += decoder.decode(value, { stream: true });
      return out.includes("ready") || done;
    });
    writeFileSync(go, "");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += decoder.decode(value, { stream: true });
    }
    expect(await p.exited).toBe(0);
    expect(out).toContain("after");
    expect(hostile(out)).toBe(0);
    expect(hostile(await stderr)).toBe(0);
  });

  test("an error line at the CLI's edge carries no escape (here the agent reference given)", async () => {
    const r = await sb.run(["logs", "no\x1b]0;PWNED\x07such\x9b2J"]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("nosuch");
    expect(hostile(r)).toBe(0);
  });
});

describe("what an agent commits, asks and sends", () => {
  const file = "x\x1b]0;PWNED\x07\u202ey.txt";
  beforeAll(async () => {
    const script = [
      `f="$(printf "x\\033]0;PWNED\\007\\342\\200\\256y.txt")"`,
      `echo hi > "$f"`,
      `git add -A`,
      `git commit -qm "$(printf "subject ${EVIL}")"`,
      `troupe send --user "$(printf "note ${EVIL} end")"`,
      `troupe ask --user "$(printf "question ${EVIL} end")" --timeout 300`,
      `troupe signal done --result "$(printf "result ${EVIL} end")"`,
    ].join("; ");
    await spawn("committer", script);
    await ended("committer");
  });

  test("troupe review: a comment on a file named with escapes, its list, and a refused comment's error", async () => {
    const added = await sb.run(["review", "committer", "--comment", `${file}:1=look`]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain("y.txt:1");
    expect(hostile(added)).toBe(0);
    const listed = await sb.run(["review", "committer"]);
    expect(listed.stdout).toContain("y.txt:1  look");
    expect(hostile(listed)).toBe(0);
    const refused = await sb.run(["review", "committer", "--comment", `${file}:9=look`]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("y.txt:9");
    expect(hostile(refused)).toBe(0);
    // --json keeps the name as git has it
    const json = await sb.json<{ comments: { file: string }[] }>(["review", "committer", "--json"]);
    expect(json.comments[0]!.file).toBe(file);
  });

  test("troupe conversations and troupe inbox", async () => {
    const convs = await sb.run(["conversations"]);
    expect(convs.stdout).toContain("question");
    expect(hostile(convs)).toBe(0);
    const inbox = await sb.run(["inbox"]);
    expect(inbox.stdout).toContain("note");
    expect(hostile(inbox)).toBe(0);
    const ls = await sb.run(["ls"]);
    expect(ls.stdout).toContain("result");
    expect(hostile(ls)).toBe(0);
  });
});

test("a remote's HELLO error: one short line, no escape", async () => {
  const hello = join(sb.runtime, "hello.bin");
  const message = `no such workspace ${"\x1b]0;PWNED\x07\x1b[2J\x9b2J".repeat(3)}${"A".repeat(100_000)}`;
  const frame = jsonFrame(FRAME.hello, 0, { api: API_VERSION, version: "0.1.0+1", platform: "linux-x64", workspace: "/srv/api", error: { code: "not_found", message } });
  writeFileSync(hello, Buffer.concat([Buffer.from(GREETING), Buffer.from(frame)]));
  expect((await sb.run(["remote", "add", "box", "box", "--path", "/srv/api"])).code).toBe(0);
  // what ssh would run: the far end's greeting and HELLO, then it is gone
  const env = { TROUPE_SSH_COMMAND: `cat ${hello}; true`, TROUPE_REMOTE_TIMEOUT: "5" };
  const r = await sb.run(["ls", "--remote", "box"], { env });
  expect(r.stderr).toContain("no such workspace");
  expect(hostile(r)).toBe(0);
  expect(r.stderr.length).toBeLessThan(1_000);
});
