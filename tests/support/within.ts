import { BIN, type RunResult, type Sandbox } from "./sandbox.ts";

/**
 * Runs troupe in the sandbox, failing (and killing it) if it has not answered by the deadline: a
 * hung daemon must fail the test, not hang it.
 */
export async function within(sb: Sandbox, args: string[], ms = 10_000): Promise<RunResult> {
  const p = Bun.spawn([BIN, ...args], { cwd: sb.dir, env: sb.env, stdout: "pipe", stderr: "pipe" });
  const timer = setTimeout(() => p.kill("SIGKILL"), ms);
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  clearTimeout(timer);
  if (p.signalCode === "SIGKILL") throw new Error(`troupe ${args.join(" ")} did not answer within ${ms} ms (daemon hung?)`);
  return { code, stdout, stderr };
}
