import { fstatSync } from "node:fs";
import { restartQuiet } from "../self.ts";
import { program } from "../runtime/program.ts";

/** `troupe`, `troupe --workspace DIR`, `troupe --remote NAME`, `troupe -A`, `troupe dashboard ...`: the full-screen dashboard. */
export const opensDashboard = (first: string | undefined): boolean =>
  first === undefined || first === "dashboard" || first === "-A" || /^--(?:workspace|remote|all-workspaces)(?:=|$)/.test(first);

/**
 * Whether `fd` may be a terminal: a character device (a terminal, or /dev/null). node:tty's
 * isatty would tell them apart, but loading it costs ~2 ms of every command.
 */
function mayBeTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}

// The dashboard lives for hours: without the runtime's quiet settings it wakes several times a
// second while idle, and they take effect only at a start. So it starts again in place here,
// before anything else loads: all that ran before the exec is paid twice. Without a terminal
// the dashboard refuses to start (src/cli/dashboard.ts), in the restarted process when stdin
// or stdout is /dev/null.
const first = program.args()[0];
if (opensDashboard(first) && mayBeTerminal(0) && mayBeTerminal(1)) restartQuiet();
// An ACP runner (and a sandbox's network proxy and bridge) lives as long as its agent's session,
// mostly idle between turns: the same, and the agent it starts gets the environment the runner
// was given (the added settings go back out)
else if (first === "acp-run" || first === "sandbox-net") restartQuiet();
