import { TroupeError } from "../errors.ts";
import { selfCommand, versionInfo, versionLine } from "../self.ts";
import { resolveWorkspace, type Workspace } from "../workspace.ts";
import { defineCommand, printJson } from "./command.ts";
import { checkDaemon, checkGit, checkNotify, checkProviders, checkRuntimeDir, checkSandbox, checkSystemd, checkTmux, checkWorkspace, type Check } from "./doctor-checks.ts";
import { checkPoolHosts } from "./doctor-hosts.ts";
import { stdout } from "./streams.ts";

/** What runs this troupe: the executable, or the command (under Deno from source, `deno run ... main.ts`). */
const selfPath = (): string => selfCommand().join(" ");

/** ok: fine; no: missing, and troupe does without; FAIL: missing or broken, and troupe needs it. */
const mark = (c: Check) => (c.ok ? "ok  " : c.needed ? "FAIL" : "no  ");

/**
 * `troupe doctor [--json]`: what troupe needs on this machine and in this workspace, one line
 * each, and how to fix what is missing. Exit 1 when something needed is missing or broken.
 * Starts nothing (no daemon), changes nothing but what any troupe command would (the socket folder).
 */
export const command = defineCommand(
  {
    synopsis: "troupe doctor [--json]",
    intro: `  one line per check, with how to fix what is missing; exit 1 when something troupe needs is
  missing or broken (agent CLIs, tmux and systemd are optional); starts no daemon. Each host of
  the pool (a remote with slots): whether ssh reaches it without this login's ssh-agent, as the
  daemon must when it places work there after you log out`,
    flags: {},
  },
  run,
);

async function run(args: string[]): Promise<number> {
  const { values } = command.parse(args, { positionals: false });
  const checks: Check[] = [checkGit()];
  let ws: Workspace | null = null;
  try {
    ws = resolveWorkspace({ workspace: values.workspace });
  } catch (err) {
    if (!(err instanceof TroupeError)) throw err;
    checks.push({ name: "runtime dir", ok: false, needed: true, detail: err.message });
  }
  if (ws) checks.push(checkRuntimeDir(ws), checkWorkspace(ws), await checkDaemon(ws));
  checks.push(checkSandbox(ws), ...(await checkProviders()), checkTmux(), checkSystemd(), checkNotify(), ...(await checkPoolHosts()));
  const problems = checks.filter((c) => c.needed && !c.ok);
  if (values.json) {
    await printJson({ ok: problems.length === 0, troupe: { ...versionInfo(), path: selfPath() }, checks });
  } else {
    const width = Math.max(...checks.map((c) => c.name.length));
    const lines = [`${versionLine()}: ${selfPath()}`, ...checks.map((c) => `${mark(c)} ${c.name.padEnd(width)}  ${c.detail}`)];
    lines.push(problems.length === 0 ? "troupe has what it needs here" : `${problems.length} problem${problems.length > 1 ? "s" : ""}: ${problems.map((c) => c.name).join(", ")}`);
    await stdout.write(`${lines.join("\n")}\n`);
  }
  return problems.length === 0 ? 0 : 1;
}
