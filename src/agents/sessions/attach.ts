import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { TroupeError } from "../../errors.ts";
import type { Attachment } from "../../protocol/api-agents.ts";
import type { Agent } from "../../protocol/entities.ts";
import { STATUS, statusesPhrase } from "../../protocol/status.ts";
import type { AgentRecord } from "../../store/index.ts";
import { toAgent } from "../../store/agents.ts";
import { getProvider } from "../../../providers/index.ts";
import { isProcessAlive, processStartedAt, processStartTime } from "../../process-info.ts";
import type { AgentDeps } from "../deps.ts";
import type { AgentEnvStore } from "../files/saved-env.ts";
import { agentEnv } from "../processes/session-env.ts";
import { sessionFiles } from "../processes/launch-detached.ts";
import { withTroupeMcp, writeMcpFiles } from "../start/mcp-config.ts";
import { agentPaths } from "../paths.ts";
import { carriesMarker, newMarker, nothingFound, type FoundProcesses } from "../processes/find.ts";
import { hashToken, newToken } from "../tokens.ts";
import type { SessionWatcher } from "./session-watcher.ts";
import { markTranscript } from "./attach-transcript.ts";

/** How long a detach waits for the watcher to see the reported process gone before ending it itself. */
const DETACH_WAIT_MS = 5_000;
/** Boot time is in whole seconds: a process's start computed from it may seem up to this much early. */
const START_SLACK_MS = 1_500;

export interface AttachDeps extends AgentDeps {
  envs: AgentEnvStore;
  watcher: SessionWatcher;
  /** Waits until nothing of the agent's earlier sessions lives (a stop may take a few seconds); returns what still does. */
  leftovers(agentId: string): Promise<FoundProcesses>;
  /** A resume of the agent is under way. */
  resuming(agentId: string): boolean;
  /** The agent's environment on its account as it is now (see start/start-session.ts). */
  runEnv(rec: AgentRecord, clientEnv: Record<string, string>): Record<string, string>;
  /** Makes a removed worktree again from the agent's branch. */
  restoreWorktree(rec: AgentRecord): Promise<unknown>;
  troupe(): string;
}


/**
 * `troupe attach`: the person takes an agent's provider session over with the CLI's interactive
 * mode on their own terminal. The daemon starts nothing: it opens a session (a new number, a
 * fresh token and marker), marks the agent `attached` and hands the client the command to run.
 * The client reports the process's pid, which the session watcher follows like any adopted
 * session (the kernel reports its end, a restarted daemon adopts it from the store); its end,
 * however the client fares, puts the agent back in the status it had (session-end.ts).
 */
export class Attachments {
  constructor(private readonly d: AttachDeps) {}

  async begin(rec: AgentRecord): Promise<Attachment> {
    const provider = getProvider(rec.provider);
    if (!STATUS[rec.status].attachable) {
      const hint = STATUS[rec.status].live && rec.status !== "attached" ? " (stop it first: troupe attach --stop)" : "";
      throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; only a ${statusesPhrase("attachable")} agent can be attached${hint}`);
    }
    if (!provider?.interactive) throw new TroupeError("invalid_state", `the ${provider?.displayName ?? rec.provider} provider has no interactive mode to attach to`);
    if (!rec.providerSessionId && !provider.resumesWithoutSession) throw new TroupeError("invalid_state", `${rec.name} reported no session id to resume`);
    if (this.d.resuming(rec.id)) throw new TroupeError("invalid_state", `${rec.name} is being resumed`);
    // one process per agent: a stopped session's processes must be gone first (`attach --stop`
    // comes right after the stop)
    const left = await this.d.leftovers(rec.id);
    if (!nothingFound(left)) throw new TroupeError("invalid_state", `${rec.name} is still stopping (pids ${[...left.pids, ...left.groups].join(", ")}); try again in a few seconds`);
    const clientEnv = this.d.envs.load(rec.id, rec.name);
    await this.d.restoreWorktree(rec);
    const paths = agentPaths(this.d.ws.stateDir, rec.name, rec.worktree);
    const built = provider.interactive({ sessionId: rec.providerSessionId ?? "", cwd: rec.cwd, model: rec.model ?? undefined, command: rec.command ?? undefined, env: clientEnv });
    const { cmd, files: mcpFiles } = withTroupeMcp(provider, built, this.d.troupe(), paths.inputDir, rec.permissions);
    const { store, bus, ws } = this.d;
    // the status may have changed during the awaits above (a resume, a stop)
    const now = store.agents.get(rec.id);
    if (!now || now.status !== rec.status || now.session !== rec.session) throw new TroupeError("conflict", `${rec.name} changed meanwhile; try again`);
    writeMcpFiles(mcpFiles, ws.stateDir);
    const session = rec.session + 1;
    const files = sessionFiles(paths.logsDir, session);
    const token = newToken();
    const marker = newMarker();
    const who = { id: rec.id, name: rec.name, token, signalFile: rec.signalFile, workspace: ws.root, socket: ws.socket, sessionKey: marker };
    const env = { ...agentEnv(this.d.runEnv(rec, clientEnv), who, this.d.binDir), ...cmd.env };
    // what the session's log holds: the CLI writes to the person's terminal, not here
    mkdirSync(dirname(files.stdoutPath), { recursive: true });
    writeFileSync(files.stdoutPath, `troupe: attached: ${cmd.argv.join(" ")} runs on the person's terminal; its screen is not kept here\n`, { flag: "a" });
    writeFileSync(files.stderrPath, "", { flag: "a" });
    const transcript = provider.transcript?.({ sessionId: rec.providerSessionId ?? "", cwd: rec.cwd, env });
    if (transcript) markTranscript(files.exitPath, transcript);
    const updated = store.db.transaction(() => {
      store.sessions.insert({ agentId: rec.id, session, ...files, marker });
      store.agents.setTokenHash(rec.id, hashToken(token));
      // a pending retry is called off: the person has the agent now
      return store.agents.update(rec.id, { session, status: "attached", attachedFrom: rec.status, retryAt: null });
    })();
    this.d.log.info(`${rec.name}: attached in session ${session} (was ${rec.status})`);
    const agent = toAgent(updated);
    bus.publish({ type: "agent:updated", agent });
    return { agent, session, argv: cmd.argv, cwd: rec.cwd, env };
  }

  /** The client started the interactive CLI as `pid`: watched from now on, by the kernel's report. */
  started(rec: AgentRecord, session: number, pid: number): Agent {
    const sess = this.current(rec, session);
    if (sess.pid !== null) throw new TroupeError("conflict", `${rec.name}'s session ${session} already runs as pid ${sess.pid}`);
    // a CLI that ended already has nothing to watch: the client's detach follows
    if (!isProcessAlive(pid, null)) return toAgent(rec);
    // the process the client started with the session's marker. Its environment may not show the
    // marker (Claude Code sets its process title over it): one that started after the session did passes
    const started = processStartedAt(pid);
    const ours = (sess.marker !== null && carriesMarker(pid, sess.marker)) || started === null || started >= sess.startedAt - START_SLACK_MS;
    if (!ours) throw new TroupeError("bad_request", `pid ${pid} is not ${rec.name}'s interactive session ${session} (it started before the session)`);
    const pidStart = processStartTime(pid);
    this.d.store.sessions.setPid(rec.id, session, pid, pidStart);
    this.d.watcher.follow({ ...sess, pid, pidStart }, pid, pidStart, null);
    return toAgent(this.d.store.agents.get(rec.id)!);
  }

  /**
   * The client saw the interactive CLI exit: the session ends (once: the watcher may have seen
   * it first) and the agent is back in its earlier status. Repeating it is harmless.
   */
  async end(rec: AgentRecord, session: number, exitCode: number | null): Promise<Agent> {
    const sess = this.d.store.sessions.get(rec.id, session);
    if (!sess) throw new TroupeError("not_found", `${rec.name} has no session ${session}`);
    if (sess.endedAt === null && rec.status === "attached" && rec.session === session) {
      if (exitCode !== null) writeFileSync(sess.exitPath, String(exitCode), { mode: 0o600 });
      // a watched process is completed by the watcher (it reads the exit file just written);
      // one never reported, or not seen gone in time, is completed here
      if (!this.d.watcher.isLive(rec.id) || !(await this.back(rec.id))) this.d.watcher.onExit(rec.id, session, exitCode);
      await this.back(rec.id);
    }
    return toAgent(this.d.store.agents.get(rec.id) ?? rec);
  }

  /** Waits until the agent is no longer attached (its session completed); false at the deadline. */
  private async back(agentId: string): Promise<boolean> {
    const stop = new AbortController();
    const seen = this.d.bus.waitFor(({ event: e }) => (e.type === "agent:updated" && e.agent.id === agentId && e.agent.status !== "attached") || null, DETACH_WAIT_MS, stop.signal);
    if (this.d.store.agents.get(agentId)?.status !== "attached") {
      stop.abort();
      return true;
    }
    return (await seen) !== null;
  }

  private current(rec: AgentRecord, session: number) {
    const sess = this.d.store.sessions.get(rec.id, session);
    if (rec.status !== "attached" || rec.session !== session || !sess || sess.endedAt !== null) {
      throw new TroupeError("invalid_state", `${rec.name} is not attached in session ${session} (it is ${rec.status})`);
    }
    return sess;
  }
}
