/**
 * Permission requests of the real Gemini CLI over ACP (`--permissions ask`), offline against the
 * scripted Gemini API, answered in the compiled dashboard in tmux: allowed with `a` + `enter`,
 * the tool call runs; denied, it does not; pending across a `kill -9` of the daemon, it is shown
 * again by the next one and allowed there.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { PermissionRequest } from "../../src/protocol/permission.ts";
import { type Sandbox, waitFor } from "../support/sandbox.ts";
import { HAVE_TMUX, Terminal } from "../support/terminal.ts";
import { agentNamed, shell, useGeminiTroupe } from "../support/gemini-troupe.ts";

const cli = useGeminiTroupe();
let term: Terminal | null = null;

afterEach(() => {
  term?.close();
  term = null;
});

/** A sandbox whose model asks to write a marker file, the dashboard open on it, and an agent spawned under ask. */
async function asking(name: string, answer: string): Promise<Sandbox> {
  const sb = await cli.sandbox({ tool: shell("echo ran > marker.txt"), answer });
  term = new Terminal(sb, 100, 30);
  await term.openDashboard();
  await sb.json(["spawn", "--provider", "gemini", "--name", name, "--prompt", "Run it.", "--permissions", "ask", "--json"]);
  return sb;
}

describe.skipIf(!HAVE_TMUX)("permission requests from the real Gemini CLI over ACP, answered in the dashboard", () => {
  test("a shell call under ask shows as a Bash request; a + enter allows it once and it runs", async () => {
    const sb = await asking("gemok", "Ran it.");
    const screen = await term!.waitFor("$ echo ran > marker.txt", 90_000);
    expect(screen).toMatch(/! +gemok/);
    expect(screen).toContain("gemok asks to use Bash");
    for (const l of screen.split("\n")) expect(Bun.stringWidth(l)).toBeLessThanOrEqual(100);
    const a = await agentNamed(sb, "gemok");
    expect(existsSync(join(a.cwd, "marker.txt"))).toBe(false);

    term!.keys("a");
    await term!.waitFor("allow once");
    term!.keys("Enter");
    await term!.waitFor("allowed Bash once for gemok");
    // the shell makes the file before it writes to it: the call has run once the file holds its line
    const marker = join(a.cwd, "marker.txt");
    await waitFor("the allowed call to run", () => (existsSync(marker) && readFileSync(marker, "utf8") === "ran\n" ? true : undefined), 60_000);
    await term!.waitForNot(/! +gemok/);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((p) => [p.status, p.decidedBy])).toEqual([["allowed", "person"]]);
  }, 180_000);

  test("denied in the dialog: the call does not run, the agent is told and ends its turn", async () => {
    const sb = await asking("gemno", "Stopped.");
    await term!.waitFor("$ echo ran > marker.txt", 90_000);
    term!.keys("a");
    await term!.waitFor("allow once");
    term!.keys("Up", "Enter"); // deny (the last choice), then to its reason
    await term!.waitFor(/› ● deny|> ● deny|Reason/);
    term!.type("not today");
    term!.keys("Enter");
    await term!.waitFor("denied Bash to gemno");
    await waitFor("the turn to end", async () => ((await sb.run(["logs", "gemno"])).stdout.includes("Stopped.") ? true : undefined), 60_000);
    const a = await agentNamed(sb, "gemno");
    expect(existsSync(join(a.cwd, "marker.txt"))).toBe(false);
    expect((await sb.run(["logs", "gemno", "--raw"])).stdout).toMatch(/"outcome":\{"outcome":"selected","optionId":"cancel"\}/);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((p) => [p.status, p.decidedBy])).toEqual([["denied", "person"]]);
  }, 180_000);

  test("kill -9 of the daemon while the request is pending: the next daemon shows the same one, and allowing it there runs the call", async () => {
    const sb = await asking("gemkill", "Ran it.");
    await term!.waitFor("$ echo ran > marker.txt", 90_000);
    const before = await sb.json<PermissionRequest[]>(["permissions", "--json"]);
    expect(before.map((r) => r.status)).toEqual(["pending"]);
    const killed = await sb.killDaemon();
    // the runner's reconnecting wait, or the next command, starts a daemon; the dashboard reconnects to it
    expect((await agentNamed(sb, "gemkill")).status).toBe("running");
    expect(await sb.daemonPid()).not.toBe(killed);
    await term!.waitForNot("daemon not reachable", 30_000);
    expect((await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"])).map((r) => [r.id, r.status])).toEqual(before.map((r) => [r.id, "pending"]));
    await term!.waitFor("$ echo ran > marker.txt");
    term!.keys("a");
    await term!.waitFor("allow once");
    term!.keys("Enter");
    await term!.waitFor("allowed Bash once for gemkill");
    const a = await agentNamed(sb, "gemkill");
    await waitFor("the allowed call to run", () => existsSync(join(a.cwd, "marker.txt")), 60_000);
    const all = await sb.json<PermissionRequest[]>(["permissions", "--all", "--json"]);
    expect(all.map((p) => [p.id, p.status, p.decidedBy])).toEqual([[before[0]!.id, "allowed", "person"]]);
  }, 180_000);
});
