import { TroupeError } from "../errors.ts";
import { defineCommand } from "./command.ts";
import { SOURCE_FLAGS, manySources, sourceFlagsOf, sourcesOf } from "./sources.ts";
import { EXIT, reportError } from "./exit.ts";
import { clientEnv, connect } from "./context.ts";
import { notAWorkspace } from "../workspace.ts";
import { stderr, stdout } from "./streams.ts";

/** `troupe` with no command: the full-screen dashboard. Ink and React load only here. */
export const command = defineCommand(
  {
    synopsis: "troupe [--workspace DIR]... [--remote NAME]... [-A]",
    intro: "  opens the dashboard: every agent, its live output, its questions; q quits (agents keep running)",
    flags: SOURCE_FLAGS,
    notes:
      "  several sources: one list, a header over each source's agents, those that need you first;\n  each action goes to the agent's own daemon\n  keys: press ? inside",
    workspace: false,
  },
  run,
);

async function run(args: string[]): Promise<number> {
  try {
    const { values } = command.parse(args, { positionals: false });
    if (values.help) {
      stdout.write(`usage: ${command.usage}\n`);
      return EXIT.ok;
    }
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      stderr.write("troupe: the dashboard needs a terminal; for scripts use troupe ls, troupe logs, troupe answer\n");
      return EXIT.usage;
    }
    // main.ts has restarted it in place with the runtime's quiet settings by now (self.ts restartQuiet)
    // A hung-up terminal (an SSH link dropped, tmux killed) or a kill ends the dashboard through its
    // exit hooks: the terminal is restored and the agent CLIs' version probes are stopped.
    for (const [sig, code] of [["SIGHUP", 129], ["SIGTERM", 143]] as const) process.once(sig, () => process.exit(code));
    const flags = sourceFlagsOf({ workspace: values.workspace, remote: values.remote, "all-workspaces": values["all-workspaces"] });
    const { runDashboard } = await import("../ui/run.tsx");
    if (!manySources(flags)) {
      const { ws, client } = await connect(flags.workspaces?.[0]);
      // said before the screen opens, not as a daemon that never comes
      if (ws.unclaimed) throw notAWorkspace(ws);
      return await runDashboard({ client, workspace: ws, env: clientEnv() });
    }
    const sources = await sourcesOf(flags);
    const { closeSources } = await import("../client/sources.ts");
    // at any exit (a quit, or a hang-up or kill, which exit at once above): the links go, a frozen host's ssh too
    process.once("exit", () => closeSources(sources));
    if (!sources.length) throw new TroupeError("not_found", "no workspace with a live daemon here (custom TROUPE_SOCKET daemons are not found), and no remotes");
    const first = sources[0]!;
    return await runDashboard({ client: first.client, workspace: first.kind === "local" ? first.ws : null, env: clientEnv(), sources });
  } catch (err) {
    return reportError(err, command.usage);
  }
}
