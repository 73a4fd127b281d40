import { TroupeError } from "../errors.ts";
import { resolveWorkspace } from "../workspace.ts";
import { readLockFile } from "../lock-file.ts";
import { clientFor, ensureDaemon } from "../client/connect.ts";
import { parse, printJson } from "./command.ts";
import { stderr, stdout } from "./streams.ts";

export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {});
  const ws = resolveWorkspace({ workspace: values.workspace });
  const action = positionals[0];
  switch (action) {
    case "run": {
      const { runDaemon } = await import("../daemon/daemon.ts");
      const d = runDaemon(ws);
      if (!d) {
        const h = readLockFile(ws.stateDir);
        const where = h && h.socket && h.socket !== ws.socket ? ` (pid ${h.pid}, on another socket: ${h.socket}; set TROUPE_SOCKET to it)` : "";
        stderr.write(`troupe: a daemon already serves ${ws.root}${where}\n`);
        return 0;
      }
      await d.stopped;
      return 0;
    }
    case "start": {
      const h = await (await ensureDaemon(ws)).health();
      if (values.json) printJson(h);
      else stdout.write(`daemon ${h.pid} serves ${h.workspace}\n`);
      return 0;
    }
    case "stop": {
      const client = clientFor(ws);
      try {
        const h = await client.health();
        await client.stopDaemon();
        const deadline = Date.now() + 5_000;
        while (Date.now() < deadline) {
          try {
            await client.health();
            await Bun.sleep(20);
          } catch {
            break;
          }
        }
        if (values.json) printJson({ stopped: true, pid: h.pid });
        else stdout.write(`daemon ${h.pid} stopped; agents keep running\n`);
      } catch (err) {
        if (!(err instanceof TroupeError && err.code === "daemon_unavailable")) throw err;
        if (values.json) printJson({ stopped: false });
        else stdout.write("no daemon running\n");
      }
      return 0;
    }
    case "status": {
      try {
        const h = await clientFor(ws).health();
        if (values.json) printJson({ running: true, ...h, socket: ws.socket });
        else stdout.write(`daemon ${h.pid} serves ${h.workspace} on ${ws.socket}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof TroupeError && err.code === "daemon_unavailable")) throw err;
        if (values.json) printJson({ running: false, workspace: ws.root, socket: ws.socket });
        else stdout.write(`no daemon serves ${ws.root}\n`);
        return 1;
      }
    }
    default:
      throw new TroupeError("usage", action ? `unknown daemon action '${action}'` : "daemon needs an action: run, start, stop or status");
  }
}
