import type { AgentDeps } from "./deps.ts";
import { troupeIn } from "./paths.ts";
import { rulesOf } from "./permission-layers.ts";
import { AgentEnvStore, moveLegacyEnvs } from "./files/saved-env.ts";
import { Lifecycle } from "./lifecycle/run-lifecycle.ts";
import { announceOnly, type RunEnds } from "./lifecycle/run-ends.ts";
import { SESSION_IDENTITY_VARS } from "./processes/session-env.ts";
import { recoverWrapperPids } from "./processes/recover-pids.ts";
import { recoverUnlaunched } from "./processes/recover-starts.ts";
import { Stopper } from "./processes/stopper.ts";
import { SessionWatcher } from "./sessions/session-watcher.ts";
import { Launches } from "./start/launches.ts";
import { Relaunch, type StartSession } from "./start/next-session.ts";
import { providerNamed } from "./start/provider-named.ts";
import { startSession } from "./start/start-session.ts";

/** How long a stopping daemon waits for spawns and resumes under way. */
const LAUNCH_WAIT_MS = 10_000;

/** What the use cases (src/agents/use-cases/) are built from: the deps and the running parts they share. */
export interface AgentParts extends AgentDeps {
  /** What follows a stop and a removal (the daemon's declared sequences), or only their announcement. */
  ends: RunEnds;
  envs: AgentEnvStore;
  stopper: Stopper;
  watcher: SessionWatcher;
  lifecycle: Lifecycle;
  relaunch: Relaunch;
  launches: Launches;
  startSession: StartSession;
  /** This troupe by absolute path, for prompts (a login shell may drop it from PATH). */
  troupe(): string;
}

/**
 * The agent runtime's running parts, built once and whole: the session watcher reports each
 * run's end to the lifecycle, which may launch the next session, which the watcher follows (the
 * one cycle, closed here). What an adapter calls are the use cases over `parts`; this only starts
 * and stops what runs.
 */
export class AgentRuntime {
  readonly parts: AgentParts;

  constructor(d: AgentDeps) {
    const stopper = new Stopper(d);
    const envs = new AgentEnvStore(d.ws.stateDir);
    const launches = new Launches();
    const troupe = () => troupeIn(d.binDir);
    // built last (it takes the lifecycle's hooks); what comes before calls it only once it runs
    let watcher: SessionWatcher | null = null;
    const watched = () => watcher!;
    const sessions = { ...d, stopper, envs, follow: (...f: Parameters<SessionWatcher["follow"]>) => watched().follow(...f) };
    const start: StartSession = (...args) => startSession(sessions, ...args);
    const relaunch = new Relaunch({ ...d, envs, provider: providerNamed, startSession: start, troupe, rulesOf: (rec) => rulesOf(d, rec) });
    const lifecycle = new Lifecycle({
      ...d,
      stopper,
      isLive: (id) => watched().isLive(id),
      flushActivity: () => watched().flushActivity(),
      resume: (rec, prompt, onLaunch) => relaunch.resume(rec, prompt, onLaunch),
      respawn: (rec, onLaunch) => relaunch.respawn(rec, onLaunch),
      tracked: (launch) => launches.track(launch),
      troupe,
    });
    watcher = new SessionWatcher(d, lifecycle.watcherHooks());
    this.parts = { ...d, ends: d.ends ?? announceOnly(d.bus), envs, stopper, watcher, lifecycle, relaunch, launches, startSession: start, troupe };
  }

  start(): void {
    const { store, log, envs, watcher, stopper, lifecycle } = this.parts;
    // a daemon started by an agent's client inherits that agent's identity: its own children must
    // not carry it (its marker: stopping the agent would kill them; its token: they would speak as it)
    for (const name of SESSION_IDENTITY_VARS) delete process.env[name];
    moveLegacyEnvs(store, envs, log);
    recoverWrapperPids(store, log);
    recoverUnlaunched(store, log);
    const orphans = store.ports.dropOrphans();
    if (orphans) log.info(`gave back ${orphans} port(s) leased by spawns an earlier daemon never finished`);
    watcher.start();
    stopper.start();
    // retries an earlier daemon left pending, and the interrupted runs found at start
    lifecycle.start();
  }

  /** Lets launches under way finish (a process must not start unrecorded), then stops watching. */
  async shutdown(): Promise<void> {
    await this.parts.launches.settled(LAUNCH_WAIT_MS);
    // a pending SIGKILL deadline stays in the store: the next daemon carries it out
    this.parts.stopper.shutdown();
    this.parts.lifecycle.shutdown();
    await this.parts.watcher.stop();
  }
}
