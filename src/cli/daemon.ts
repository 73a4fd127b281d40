import { TroupeError } from "../errors.ts";
import { notAWorkspace, resolveWorkspace, type Workspace } from "../workspace.ts";
import { readLockFile } from "../lock-file.ts";
import { claimWorkspace } from "../daemon/claim.ts";
import { clientFor, ensureDaemon, waitForExit } from "../client/connect.ts";
import { defineCommand, printJson } from "./command.ts";
import { stderr, stdout } from "./streams.ts";

/** Stops the workspace's daemon and waits until it has let go of the lock; its pid, or null when none ran. */
async function stopDaemon(ws: Workspace): Promise<number | null> {
  const client = clientFor(ws);
  try {
    const { pid } = await client.health();
    await client.stopDaemon();
    await waitForExit(ws);
    return pid;
  } catch (err) {
    if (err instanceof TroupeError && err.code === "daemon_unavailable") return null;
    throw err;
  }
}

const action = (name: Action) => (args: string[]) => run(name, args);
type Action = "run" | "start" | "stop" | "restart" | "status";

export const command = defineCommand({
  name: "daemon",
  flags: {},
  forms: {
    run: { usage: "          in the foreground (what 'start' runs, detached)", flags: [], run: action("run") },
    start: { usage: "[--json]", flags: [], run: action("start") },
    stop: { usage: "[--json]   agents keep running", flags: [], run: action("stop") },
    restart: { usage: "[--json]", flags: [], run: action("restart") },
    status: { usage: "[--json]   exit 1 when none runs", flags: [], run: action("status") },
  },
});

async function run(act: Action, args: string[]): Promise<number> {
  const { values, positionals } = command.parseForm(act, args);
  if (positionals.length) throw new TroupeError("usage", `daemon ${act} takes no arguments`);
  const ws = resolveWorkspace({ workspace: values.workspace });
  switch (act) {
    case "run": {
      if (ws.unclaimed) throw notAWorkspace(ws);
      const lock = claimWorkspace(ws);
      if (!lock) {
        const h = readLockFile(ws.stateDir);
        const where = h && h.socket && h.socket !== ws.socket ? ` (pid ${h.pid}, on another socket: ${h.socket}; set TROUPE_SOCKET to it)` : "";
        stderr.write(`troupe: a daemon already serves ${ws.root}${where}\n`);
        return 0;
      }
      const { runDaemon } = await import("../daemon/daemon.ts");
      await (await runDaemon(ws, lock)).stopped;
      return 0;
    }
    case "start": {
      const h = await (await ensureDaemon(ws)).health();
      if (values.json) printJson(h);
      else stdout.write(`daemon ${h.pid} serves ${h.workspace}\n`);
      return 0;
    }
    case "stop": {
      const pid = await stopDaemon(ws);
      if (values.json) printJson(pid === null ? { stopped: false } : { stopped: true, pid });
      else stdout.write(pid === null ? "no daemon running\n" : `daemon ${pid} stopped; agents keep running\n`);
      return 0;
    }
    case "restart": {
      // by hand what a newer client does by itself: the new daemon is this troupe's build and adopts every agent
      const old = await stopDaemon(ws);
      const h = await (await ensureDaemon(ws)).health();
      if (values.json) printJson({ ...h, previousPid: old });
      else stdout.write(old === null ? `daemon ${h.pid} started (none was running)\n` : `daemon ${old} restarted as ${h.pid} (troupe ${h.version}); agents keep running\n`);
      return 0;
    }
    case "status": {
      try {
        const h = await clientFor(ws).health();
        if (values.json) printJson({ running: true, ...h, socket: ws.socket });
        else stdout.write(`daemon ${h.pid} (troupe ${h.version}) serves ${h.workspace} on ${ws.socket}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof TroupeError && err.code === "daemon_unavailable")) throw err;
        if (values.json) printJson({ running: false, workspace: ws.root, socket: ws.socket });
        else stdout.write(`no daemon serves ${ws.root}\n`);
        return 1;
      }
    }
  }
}
