/**
 * Preloaded for every `bun test` run (bunfig.toml): once all files have run, no process this run
 * started through a sandbox may still be alive — no daemon, agent, tmux server or dashboard. One
 * that is gets killed and named, and the run fails.
 */
import { afterAll } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { Sandbox } from "./sandbox.ts";

afterAll(async () => {
  const deadline = Date.now() + 3_000;
  let leaked = survivors();
  // a daemon told to stop, or a tmux server told to die, may take a moment
  while (leaked.length > 0 && Date.now() < deadline) {
    await Bun.sleep(100);
    leaked = survivors();
  }
  if (leaked.length === 0) return;
  for (const p of leaked) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`the test run left ${leaked.length} process(es) behind (killed now):\n${leaked.map((p) => `  ${p.pid} ${p.cmd}`).join("\n")}`);
});

/** Processes whose environment or arguments name one of this run's sandbox runtime folders. */
function survivors(): { pid: number; cmd: string }[] {
  const marks = Sandbox.runtimes.map((r) => `${r}/`);
  if (marks.length === 0) return [];
  const found: { pid: number; cmd: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    let env: string;
    let cmd: string;
    try {
      if (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.startsWith("Z")) continue;
      env = readFileSync(`/proc/${pid}/environ`, "latin1");
      cmd = readFileSync(`/proc/${pid}/cmdline`, "latin1").replaceAll("\0", " ").trim();
    } catch {
      continue; // gone, or not ours to read
    }
    if (marks.some((m) => env.includes(m) || cmd.includes(m))) found.push({ pid, cmd });
  }
  return found;
}
