/**
 * The real Gemini CLI over ACP under troupe's runner, offline, across a `kill -9` of the daemon in
 * the middle of a turn: the runner and the agent are not the daemon's children and go on; the tool
 * call's permission request, made while no daemon runs, brings one up (the runner is a client that
 * starts the daemon when none answers), is filed once and, across a second kill while the runner
 * waits for the person, answered once; every line of the session's output is stored once.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { waitFor } from "../support/sandbox.ts";
import { agentNamed, pending, shell, useGeminiTroupe } from "../support/gemini-troupe.ts";
import { alive, pidsIn } from "../support/processes.ts";

const cli = useGeminiTroupe();

/** The parent of `pid`, from /proc (the fourth field of its stat, after the command's parenthesised name). */
const parentOf = (pid: number): number => Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);

const count = (text: string, what: string): number => text.split(what).length - 1;

test("kill -9 of the daemon mid-turn: the turn goes on, its permission request is filed once, allowed once, and every output line stored once", async () => {
  let think!: () => void;
  const hold = new Promise<void>((r) => (think = r));
  const sb = await cli.sandbox({ tool: shell("echo ran > marker.txt"), answer: "Ran it.", hold });
  await sb.json(["spawn", "--provider", "gemini", "--name", "steady", "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  const a = await agentNamed(sb, "steady");
  const out = join(sb.dir, ".troupe", "logs", "steady", "1.out");
  await waitFor("the prompt to reach the agent", async () => ((await sb.run(["logs", "steady", "--raw"])).stdout.includes('"method":"session/prompt"') ? true : undefined), 60_000);
  // the runner, its watcher's sh and the CLI, all working in the agent's worktree
  const session = pidsIn(a.cwd, "--acp");
  expect(session.length).toBeGreaterThanOrEqual(2);

  const killed = await sb.killDaemon();
  expect(session.filter(alive)).toEqual(session);
  // the model answers with its tool call only now, with no daemon to ask: the runner's filing finds none and starts one
  think();
  await waitFor("the agent to ask (read from the session's output file, not the daemon)", () => (readFileSync(out, "utf8").includes('"method":"session/request_permission"') ? true : undefined), 60_000);
  const daemon = await waitFor("a daemon again", () => sb.daemonPid().then((p) => p ?? undefined), 30_000);
  expect(daemon).not.toBe(killed);
  expect(pidsIn(a.cwd, "acp-run")).toContain(parentOf(daemon));

  const r = await pending(sb);
  expect(r).toMatchObject({ agentName: "steady", toolName: "Bash", status: "pending" });
  expect(String(r.input.command)).toContain("echo ran > marker.txt");
  expect((await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).map((p) => p.id)).toEqual([r.id]);
  expect(existsSync(join(a.cwd, "marker.txt"))).toBe(false);
  // killed again (the runner's child, this time) while the runner waits for the person: the next daemon has the same request, still pending
  await sb.killDaemon();
  expect((await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).map((p) => [p.id, p.status])).toEqual([[r.id, "pending"]]);
  expect(await sb.run(["allow", r.id])).toMatchObject({ code: 0 });
  // the shell makes the file before it writes to it: the call has run once the file holds its line
  const marker = join(a.cwd, "marker.txt");
  await waitFor("the allowed call to run", () => (existsSync(marker) && readFileSync(marker, "utf8") === "ran\n" ? true : undefined), 60_000);
  const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
  expect(all.map((p) => [p.id, p.status, p.decidedBy])).toEqual([[r.id, "allowed", "person"]]);

  // the first session is over once its wrapper wrote its exit status: its output file is whole
  await waitFor("the first session to end", () => existsSync(join(sb.dir, ".troupe", "logs", "steady", "1.exit")), 90_000);
  const file = readFileSync(out, "utf8");
  expect(file).toContain('{"troupe":"turn"');
  const stored = () => sb.run(["logs", "steady", "--raw", "--session", "1"]).then((x) => x.stdout);
  await waitFor("the daemon to store the session's last line", async () => ((await stored()).length >= file.length ? true : undefined), 30_000);
  const raw = await stored();
  expect(count(raw, '"method":"session/prompt"')).toBe(1);
  // under ask, Gemini CLI 0.61 announces the call by its permission request alone (no tool_call update first)
  expect(count(raw, '"method":"session/request_permission"')).toBe(1);
  expect(count(raw, '"optionId":"proceed_once"}}')).toBe(1);
  expect(count(raw, '"sessionUpdate":"tool_call_update"')).toBe(1);
  expect(raw).toBe(file);
  // and the session's processes ended with it
  await waitFor("the session's processes to be gone", () => session.every((p) => !alive(p)), 15_000);
}, 240_000);
