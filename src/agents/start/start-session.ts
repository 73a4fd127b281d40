import { join } from "node:path";
import { errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { AgentPatch, AgentRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import type { ProviderCommand } from "../../../providers/types.ts";
import type { AgentDeps } from "../deps.ts";
import { agentPaths } from "../paths.ts";
import { clearSignalFile } from "../files/signal.ts";
import { loadRole, roleSandbox } from "../files/spawn-role.ts";
import type { AgentEnvStore } from "../files/saved-env.ts";
import { failRun } from "../lifecycle/fail-run.ts";
import { newMarker } from "../processes/find.ts";
import { launchSession, sessionFiles } from "../processes/launch-detached.ts";
import { agentEnv } from "../processes/session-env.ts";
import type { Stopper } from "../processes/stopper.ts";
import type { SessionWatcher } from "../sessions/session-watcher.ts";
import { sandboxSession, type SessionSandbox } from "../../sandbox/session.ts";
import { sessionSandboxSettings } from "../../sandbox/layers.ts";
import { providerNamed } from "./provider-named.ts";
import { portsEnv } from "./ports.ts";
import { selfCommand } from "../../self.ts";

interface SessionStartDeps extends Pick<AgentDeps, "ws" | "store" | "bus" | "binDir" | "accounts" | "input"> {
  /** Where each agent's role is kept: its profile's sandbox is one of the session's layers. */
  envs: Pick<AgentEnvStore, "dir" | "load">;
  stopper: Stopper;
  /** Watches the launched process (the session watcher's follow). */
  follow: SessionWatcher["follow"];
}

/**
 * Launches one session of a recorded agent. `onLaunch` (what a resume clears: questions,
 * result...) is applied only once the process runs, so a launch that fails leaves the agent as it
 * was, questions included.
 */
export async function startSession(d: SessionStartDeps, rec: AgentRecord, session: number, cmd: ProviderCommand, token: string, onLaunch: AgentPatch, clientEnv: Record<string, string>, setup: string | null = null): Promise<Agent> {
  const { store, bus, ws } = d;
  const files = sessionFiles(agentPaths(ws.stateDir, rec.name, rec.worktree).logsDir, session);
  const marker = newMarker();
  const who = { id: rec.id, name: rec.name, token, signalFile: rec.signalFile, workspace: ws.root, socket: ws.socket, sessionKey: marker };
  // every run (a retry, a resume) on the agent's account as it is now, never one found spent
  let runEnv = clientEnv;
  try {
    if (d.accounts) runEnv = d.accounts.envFor(store.agents.get(rec.id) ?? rec, clientEnv);
  } catch (err) {
    if (session === 1) failRun(d, rec.id, errorMessage(err));
    throw err;
  }
  // the ports its worktree holds, read now: a resume may have leased them again with a recreated worktree
  const env = agentEnv(runEnv, who, d.binDir, portsEnv(store.ports.of(rec.id)));
  // whose model API network allow opens: the person's spawn's, for a worker its first ancestor's
  let modelEnv = runEnv;
  if (rec.parentId !== null) {
    try {
      modelEnv = personsEnv(d, rec);
    } catch {
      modelEnv = {}; // the CLI's own API hosts, none an agent named
    }
  }
  // in its sandbox (src/sandbox/), or not and why; a strict one that cannot start starts nothing
  let sandbox: SessionSandbox;
  try {
    const where = { agentId: rec.id, root: ws.root, stateDir: ws.stateDir, socket: ws.socket, cwd: rec.cwd, worktree: rec.worktree, agentDir: join(ws.stateDir, "agents", rec.name), worker: rec.parentId !== null, permissions: rec.permissions, env, modelEnv, binDir: d.binDir, self: selfCommand(), provider: providerNamed(rec.provider) };
    sandbox = sandboxSession(cmd, sessionSandboxSettings(ws.stateDir, rec.sandbox, roleSandbox(loadRole(d.envs.dir(rec.id)))), where);
  } catch (err) {
    if (session === 1) failRun(d, rec.id, errorMessage(err));
    throw err;
  }
  // the last run's signal goes, and never through a link the agent planted (nothing launched yet)
  try {
    clearSignalFile(rec.signalFile, ws.stateDir);
  } catch (err) {
    if (session === 1) failRun(d, rec.id, errorMessage(err));
    throw err;
  }
  // the marker is stored before the process exists: a daemon that dies during the launch still knows it
  const sess = store.sessions.insert({ agentId: rec.id, session, ...files, marker });
  // on a failed launch the agent keeps its status (and questions); the session number stays
  // used, so the next try gets a fresh one
  const previous = { status: rec.status };
  store.agents.update(rec.id, { session, status: "starting" });
  let launched;
  try {
    launched = await launchSession(sandbox.cmd, rec.cwd, env, files, { setup, notes: session === 1 ? sandbox.notices : [] });
  } catch (err) {
    store.sessions.end(rec.id, session, null);
    if (session === 1) failRun(d, rec.id, errorMessage(err));
    else bus.publish({ type: "agent:updated", agent: toAgent(store.agents.update(rec.id, previous)) });
    throw err;
  }
  store.sessions.setPid(rec.id, session, launched.pid, launched.pidStart);
  d.follow(sess, launched.pid, launched.pidStart, launched.child);
  if (store.agents.get(rec.id)?.status === "stopped") {
    // stopped while it was being launched: it never gets to run
    d.stopper.terminate(rec.id, session, () => {});
    return toAgent(store.agents.get(rec.id)!);
  }
  const updated = store.agents.update(rec.id, { ...onLaunch, status: "running", lastActivityAt: Date.now(), sandbox: sandbox.state });
  bus.publish({ type: "agent:updated", agent: toAgent(updated) });
  // what came for it since its prompt was built goes into its input, when it takes input mid-run
  if (cmd.stdinStream) d.input?.opened(rec.id, session);
  return toAgent(updated);
}

/**
 * The environment the person spawned a worker's first ancestor with (its saved one, with this
 * worker's account): a worker's variables came through an agent's `troupe spawn`, so they
 * say nothing of which hosts the person lets its sandbox reach.
 */
function personsEnv(d: SessionStartDeps, rec: AgentRecord): Record<string, string> {
  let root = rec;
  for (let hops = 0; root.parentId !== null && hops < 64; hops++) {
    const parent = d.store.agents.get(root.parentId);
    if (!parent) return {};
    root = parent;
  }
  if (root.parentId !== null) return {};
  const saved = d.envs.load(root.id, root.name);
  return d.accounts ? d.accounts.envFor(rec, saved) : saved;
}
