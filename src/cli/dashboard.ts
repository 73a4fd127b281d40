import { defineCommand } from "./command.ts";
import { EXIT, reportError } from "./exit.ts";
import { clientEnv, connect } from "./context.ts";
import { stderr, stdout } from "./streams.ts";

/** `troupe` with no command: the full-screen dashboard. Ink and React load only here. */
export const command = defineCommand(
  {
    synopsis: "troupe [--workspace DIR]",
    intro: "  opens the dashboard: every agent, its live output, its questions; q quits (agents keep running)",
    flags: {},
    notes: "  keys: press ? inside",
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
    const { ws, client } = await connect(values.workspace);
    const { runDashboard } = await import("../ui/run.tsx");
    return await runDashboard({ client, workspace: ws, env: clientEnv() });
  } catch (err) {
    return reportError(err, command.usage);
  }
}
