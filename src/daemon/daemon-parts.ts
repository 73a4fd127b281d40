import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TroupeError } from "../errors.ts";
import { agentSocketFor, excludeStateDir, type Workspace } from "../workspace.ts";
import { selfBinDir, selfCommand } from "../self.ts";
import { createStore, type Store } from "../store/index.ts";
import type { ProcessLock } from "./lock.ts";
import { reportConfigWarningsTo } from "../json-config.ts";
import type { Logger } from "../events/log.ts";
import { tightenModes } from "../file-modes.ts";
import { createServices, type RunningServices } from "../services/create.ts";
import { PartRunner, type Part } from "../services/parts.ts";
import { buildRouter } from "./routes/index.ts";
import type { Router } from "./router.ts";
import { serve, type DaemonServer } from "./server.ts";
import { idleExitMs, watchWorkspace } from "./lifecycle.ts";
import { IdleExit } from "./idle.ts";
import { isLive } from "../protocol/status.ts";

/** Lifecycle events stored between two prunes of the event log (which keeps the newest 50,000). */
const PRUNE_EVERY = 1000;

/** Where no executable named `troupe` runs this daemon, agents still need one on PATH: a shim that runs this one. */
function binDir(ws: Workspace): string {
  const compiled = selfBinDir();
  if (compiled) return compiled;
  const dir = join(ws.stateDir, "bin");
  mkdirSync(dir, { recursive: true });
  const shim = join(dir, "troupe");
  const quoted = selfCommand().map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(" ");
  writeFileSync(shim, `#!/bin/sh\nexec ${quoted} "$@"\n`);
  chmodSync(shim, 0o700);
  return dir;
}

/**
 * The daemon's parts, in the order they start; they stop in reverse. Nothing happens until a
 * part starts: the list can be read (its names) without side effects. `shutdown` stops the
 * daemon (the idle clock, a deleted workspace, a newer client, a signal, the API).
 */
export function daemonParts(ws: Workspace, lock: ProcessLock, log: Logger, shutdown: () => void): Part[] {
  let store: Store;
  let core: RunningServices;
  let router: Router;
  let services: PartRunner;
  let server: DaemonServer;
  let idle: IdleExit | null = null;
  let offIdle: () => void = () => {};
  let unwatch: () => void = () => {};
  const offs: (() => void)[] = [];
  return [
    // taken before this code loaded (claim.ts), let go of last: one daemon per workspace, and a loser changes nothing
    { name: "lock", stop: () => lock.release() },
    {
      name: "state files",
      start: () => {
        tightenModes(ws.stateDir);
        excludeStateDir(ws.root);
        reportConfigWarningsTo((w) => log.warn(w));
      },
    },
    {
      name: "store",
      start: () => {
        try {
          store = createStore(join(ws.stateDir, "troupe.db"), log);
        } catch (err) {
          throw err instanceof TroupeError ? err : new TroupeError("internal", `cannot open the store: ${(err as Error).message}`, { cause: err });
        }
      },
      stop: () => store.close(),
    },
    {
      name: "services",
      start: () => {
        core = createServices({ ws, store, log, binDir: binDir(ws), stopDaemon: shutdown });
        router = buildRouter(core.services);
      },
    },
    {
      // before the services start, which publish what they find: every event stands for a write
      // (output tells the checkpoints itself), and the log stays bounded over weeks, counted in
      // appends rather than on a timer, so an idle daemon never wakes for it
      name: "event log",
      start: () => {
        store.events.prune();
        offs.push(core.bus.subscribe((p) => p.event.type !== "agent:output" && store.checkpoints.wrote()));
        let appended = 0;
        offs.push(
          core.bus.subscribe((p) => {
            if (p.id !== null && ++appended >= PRUNE_EVERY) {
              appended = 0;
              store.events.prune();
            }
          }),
        );
      },
      stop: () => offs.splice(0).forEach((off) => off()),
    },
    {
      name: "service parts",
      start: () => {
        services = new PartRunner(core.parts, "the daemon's services", (name, err) => log.error(`stopping ${name}`, err));
        return services.start();
      },
      stop: () => services.stop(),
    },
    {
      // after the services started (a request finds the sessions adopted), stopped before them (no request starts a run while they stop)
      name: "server",
      start: () => {
        let steppingAside = false;
        const hooks = {
          onRequest: () => idle?.touch(),
          onNewerClient: (version: string) => {
            if (steppingAside) return;
            steppingAside = true;
            log.info(`a client of a newer troupe (${version}) asked; stopping so that it starts its own daemon (agents keep running)`);
            setTimeout(shutdown, 10);
          },
        };
        const person = serve({ socket: ws.socket, root: ws.root }, router, core.services, log, hooks);
        if (!existsSync(ws.socket)) {
          person.stop();
          throw new TroupeError("internal", `socket ${ws.socket} was not created`);
        }
        // the socket a sandboxed agent reaches, in a folder of its own (src/sandbox/): a token is needed on every route
        let agents: DaemonServer;
        try {
          agents = serve({ socket: agentSocketFor(ws.socket), root: ws.root, agents: true }, router, core.services, log, hooks);
        } catch (err) {
          person.stop();
          throw err;
        }
        server = {
          activeRequests: () => person.activeRequests() + agents.activeRequests(),
          stop: () => {
            person.stop();
            agents.stop();
          },
        };
      },
      stop: () => server.stop(),
    },
    {
      // after the server: one of its holds counts the requests in flight
      name: "idle exit",
      start: () => {
        const clock = new IdleExit(idleExitMs(ws.stateDir, log), (why) => {
          log.info(`daemon exits: ${why}`);
          shutdown();
        });
        // an event may end a hold (an agent ends, a deadline passes): the idle clock starts from it
        offIdle = core.bus.subscribe((p) => p.event.type !== "agent:output" && clock.touch());
        clock.hold("live agents", () => store.sessions.open().length > 0 || store.agents.list().some((a) => isLive(a.status)));
        clock.hold("pending retries", () => store.agents.nextRetryAt() !== null);
        clock.hold("conversation deadlines", () => store.conversations.nextExpiry() !== null);
        // an enabled flow is a promise to run at its time: the daemon stays for it
        clock.hold("enabled flows", () => core.flows.anyEnabled());
        clock.hold("connected clients", () => server.activeRequests() > 0);
        clock.start();
        idle = clock;
      },
      stop: () => {
        offIdle();
        idle?.stop();
      },
    },
    {
      name: "workspace watch",
      start: () => {
        unwatch = watchWorkspace(ws, () => {
          log.info(`the workspace ${ws.root} (or its .troupe folder) was deleted; daemon exits`);
          shutdown();
        }, log);
      },
      stop: () => unwatch(),
    },
    {
      // never removed: a second SIGTERM while the daemon stops must not cut the stop short
      name: "signals",
      start: () => {
        process.on("SIGTERM", shutdown);
        process.on("SIGINT", shutdown);
        process.on("unhandledRejection", (err) => log.error("unhandled rejection", err));
        process.on("uncaughtException", (err) => log.error("uncaught exception", err));
      },
    },
  ];
}
