/**
 * The real Gemini CLI (from npm) under troupe, offline, driven over the Agent Client Protocol
 * (`gemini --acp` under troupe's runner): a 127.0.0.1 stand-in for the Gemini API answers each
 * prompt with a shell tool call, which the CLI runs in the agent's worktree.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent } from "../../src/protocol/entities.ts";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { BIN, waitFor } from "../support/sandbox.ts";
import { pending, shell, useGeminiTroupe } from "../support/gemini-troupe.ts";
import { pidsIn } from "../support/processes.ts";

const cli = useGeminiTroupe({ sandboxed: true });

test("Gemini CLI runs the tool call in its worktree and ends with troupe signal done", async () => {
  const sb = await cli.sandbox({ tool: shell(`${BIN} signal done --result "gemini ran"`), answer: "Done." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "gem", "--prompt", "Signal that you are done.", "--json"]);
  const a = await cli.ended(sb, "gem");
  expect(a).toMatchObject({ status: "done", result: "gemini ran" });
  expect(a.providerSessionId).toBeTruthy();
  // the raw view is the ACP conversation as exchanged, each frame tagged by direction
  const raw = (await sb.run(["logs", "gem", "--raw"])).stdout;
  expect(raw).toContain('{"acp":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize"');
  expect(raw).toContain('"sessionUpdate":"tool_call_update"');
  expect(raw).not.toContain(sb.env.TROUPE_AGENT_TOKEN ?? "no token in the test's env");
}, 120_000);

test("ask: the tool call waits for the person; allowed, it runs", async () => {
  const sb = await cli.sandbox({ tool: shell("echo ran > marker.txt"), answer: "Ran it." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "asker", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const r = await pending(sb);
  expect(r).toMatchObject({ agentName: "asker", toolName: "Bash", status: "pending" });
  expect(String(r.input.command)).toContain("echo ran > marker.txt");
  const a0 = (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "asker")!;
  expect(existsSync(join(a0.cwd, "marker.txt"))).toBe(false);
  expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
  // the shell makes the file before it writes to it: the call has run once the file holds its line
  const marker = join(a0.cwd, "marker.txt");
  await waitFor("the allowed call to run", () => (existsSync(marker) && readFileSync(marker, "utf8") === "ran\n" ? true : undefined), 60_000);
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({ status: "allowed", decidedBy: "person" });
}, 180_000);

test("ask: a denied tool call does not run, and the agent is told", async () => {
  const sb = await cli.sandbox({ tool: shell(`echo ran > marker.txt`), answer: "Stopped." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "denied", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const d = await waitFor("its request", async () => (await sb.json<PermissionRequest[]>(["permissions", "--json"])).find((p) => p.agentName === "denied"), 60_000);
  expect(await sb.run(["deny", d.id, "--reason", "not today"])).toMatchObject({ code: 0 });
  const b = (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "denied")!;
  await waitFor("the denied agent's turn to end", async () => ((await sb.run(["logs", "denied"])).stdout.includes("Stopped.") ? true : undefined), 60_000);
  expect(existsSync(join(b.cwd, "marker.txt"))).toBe(false);
  const raw = (await sb.run(["logs", "denied", "--raw"])).stdout;
  expect(raw).toMatch(/"outcome":\{"outcome":"selected","optionId":"cancel"\}/);
}, 180_000);

test("edits: its own troupe commands run without asking (Gemini asks for a shell command in autoEdit; the runner's rules allow troupe's own)", async () => {
  // by name, as its prompt says it may (its session puts this troupe first on PATH)
  const sb = await cli.sandbox({ tool: shell("troupe signal done --result edited"), answer: "Done." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "editor", "--prompt", "Go.", "--permissions", "edits", "--json"]);
  expect(await cli.ended(sb, "editor")).toMatchObject({ status: "done", result: "edited" });
  expect((await sb.run(["logs", "editor", "--raw"])).stdout).toContain('"method":"session/set_mode","params":{"sessionId"');
}, 120_000);

test("a rule decides a request without the person", async () => {
  const sb = await cli.sandbox({ tool: shell(`${BIN} signal done --result ruled`), answer: "Done." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "ruled", "--prompt", "Go.", "--permissions", "ask", "--allow", "Bash(*signal done*)", "--json"]);
  expect(await cli.ended(sb, "ruled")).toMatchObject({ status: "done", result: "ruled" });
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  expect(all).toHaveLength(1);
  expect(all[0]).toMatchObject({ status: "allowed", decidedBy: "rule" });
}, 120_000);

test("a message sent while the agent works is its next prompt, in the same ACP session", async () => {
  const sb = await cli.sandbox({
    tool: shell("sleep 4; echo first"),
    answer: "First part done.",
    on: [{ text: "PLEASE-FINISH", tool: shell(`${BIN} signal done --result "took the message"`) }],
  });
  await sb.json(["spawn", "--provider", "gemini", "--name", "busy", "--prompt", "Start.", "--json"]);
  await waitFor("the first tool call to run", async () => ((await sb.run(["logs", "busy", "--raw"])).stdout.includes('"sessionUpdate":"tool_call"') ? true : undefined), 60_000);
  expect(await sb.run(["send", "busy", "PLEASE-FINISH now"])).toMatchObject({ code: 0 });
  const a = await cli.ended(sb, "busy");
  expect(a).toMatchObject({ status: "done", result: "took the message", session: 1 });
  const raw = (await sb.run(["logs", "busy", "--raw"])).stdout;
  // one session/new, two prompts into it
  expect(raw.match(/"method":"session\/new"/g)).toHaveLength(1);
  expect(raw.match(/"method":"session\/prompt"/g)).toHaveLength(2);
}, 120_000);

test("signals questions, is resumed with the answer in the same ACP session, which holds the first run, ends done, and is resumed again", async () => {
  const sb = await cli.sandbox({
    tool: shell(`${BIN} signal questions --question "Which colour should the button be?"`),
    answer: "Asked.",
    // the answer's prompt gets signal done only when the session so far holds the question asked
    on: [
      { text: "A: teal", history: "Which colour should the button be?", tool: shell(`${BIN} signal done --result "button is teal"`) },
      { text: "ROUND-THREE", history: "button is teal", tool: shell(`${BIN} signal done --result "third run"`) },
    ],
  }, true);
  // begun early in a minute, the session is resumed within it: the case Gemini CLI 0.61 cannot load
  await waitFor("the first half of a minute", () => new Date().getUTCSeconds() < 30 || undefined, 35_000);
  await sb.json(["spawn", "--provider", "gemini", "--name", "asker", "--prompt", "Style the button.", "--json"]);
  const waiting = await cli.ended(sb, "asker");
  expect(waiting).toMatchObject({ status: "waiting", session: 1, questions: [{ id: "q1", question: "Which colour should the button be?" }] });
  expect(await sb.run(["resume", "asker", "--answer", "q1=teal"])).toMatchObject({ code: 0, stdout: "asker resumed (session 2)\n" });
  await waitFor("asker's second session", async () => ((await sb.json<Agent[]>(["ls", "--json"]))[0]!.session === 2 ? true : undefined), 30_000);
  // Gemini CLI cannot load a session in the minute it began: the runner may wait up to a minute first
  const done = await cli.ended(sb, "asker", 150_000);
  expect(done).toMatchObject({ status: "done", result: "button is teal", session: 2, providerSessionId: waiting.providerSessionId });
  const raw = (await sb.run(["logs", "asker", "--raw"])).stdout;
  expect(raw.match(/"method":"session\/new"/g)).toHaveLength(1);
  const load = `"method":"session/load","params":{"sessionId":"${waiting.providerSessionId}"`;
  expect(raw).toContain(load);
  // the load went out in a later clock minute than the one the session was first seen in
  const chunks = (await sb.run(["logs", "asker", "--json"])).stdout.trim().split("\n").map((l) => JSON.parse(l) as { data: string; createdAt: number });
  const minute = (text: string) => Math.floor(chunks.find((c) => c.data.includes(text))!.createdAt / 60_000);
  expect(minute(load)).toBeGreaterThan(minute(waiting.providerSessionId!));
  // a second resume: the session is still there (the CLI's cleanup, which would delete it, is off in troupe's settings file)
  expect(await sb.run(["resume", "asker", "--message", "ROUND-THREE"])).toMatchObject({ code: 0 });
  await waitFor("asker's third session", async () => ((await sb.json<Agent[]>(["ls", "--json"]))[0]!.session === 3 ? true : undefined), 30_000);
  expect(await cli.ended(sb, "asker")).toMatchObject({ status: "done", result: "third run", session: 3, providerSessionId: waiting.providerSessionId });
}, 300_000);

test("kill -9 of the runner ends the agent and the tool it runs", async () => {
  const sb = await cli.sandbox({ tool: shell("sleep 97"), answer: "never" });
  await sb.json(["spawn", "--provider", "gemini", "--name", "orphan", "--prompt", "Wait.", "--json"]);
  const a = (await sb.json<Agent[]>(["ls", "--json"])).find((x) => x.name === "orphan")!;
  // its runner: the acp-run process working in the agent's worktree
  const runner = await waitFor("the runner", () => {
    const mine = pidsIn(a.cwd, "acp-run");
    return mine.length ? mine : undefined;
  }, 30_000);
  // the agent and its tool: the processes working in its worktree (another test's are elsewhere)
  await waitFor("the tool to run", () => (pidsIn(a.cwd, "sleep 97").length ? true : undefined), 60_000);
  expect(pidsIn(a.cwd, "gemini").length).toBeGreaterThan(0);
  for (const pid of runner) process.kill(pid, "SIGKILL");
  await waitFor("the agent and its tool to be gone", () => (pidsIn(a.cwd, "sleep 97").length === 0 && pidsIn(a.cwd, "gemini").length === 0 ? true : undefined), 15_000);
}, 120_000);

test("a question written into the session while the agent works is its own troupe listen's when it looks, never a prompt after it", async () => {
  // a script, as Gemini CLI runs no command substitution in its shell tool
  // in /var/tmp: the agent runs it, and its sandbox has a /tmp of its own
  const script = join(mkdtempSync("/var/tmp/troupe-listen-"), "listen.sh");
  writeFileSync(script, `sleep 4\nc=$(${BIN} listen --timeout 30000 | sed -n 's/.*"conversationId": *"\\([^"]*\\)".*/\\1/p')\n${BIN} answer blue --conversation "$c" && ${BIN} signal done --result heard\n`);
  const listen = `sh ${script}`;
  const sb = await cli.sandbox({ tool: shell(listen), answer: "Listened." });
  await sb.json(["spawn", "--provider", "gemini", "--name", "ear", "--prompt", "Listen.", "--json"]);
  await waitFor("its tool call to run", async () => ((await sb.run(["logs", "ear", "--raw"])).stdout.includes('"sessionUpdate":"tool_call"') ? true : undefined), 60_000);
  // the agent is in its `sleep`, not in a listen: the question is written into its session's input
  const asked = sb.run(["ask", "--to", "ear", "WHAT-COLOR?", "--timeout", "60000"]);
  expect(await cli.ended(sb, "ear")).toMatchObject({ status: "done", result: "heard" });
  expect((await asked).stdout).toContain("blue");
  const raw = (await sb.run(["logs", "ear", "--raw"])).stdout;
  // one prompt: the question went to the listen, and the runner never prompted with it
  expect(raw.match(/"method":"session\/prompt"/g)).toHaveLength(1);
}, 120_000);
