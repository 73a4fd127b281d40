import { agentDiff } from "../git/agent-diff.ts";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Agent, Question } from "../protocol/entities.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { DiffLine } from "../protocol/review.ts";
import type { ResumeRequestSchema } from "../protocol/api.ts";
import type { z } from "zod";
import type { AgentRecord, AgentPatch } from "../store/index.ts";
import type { Provider, ProviderCommand } from "../../providers/types.ts";
import { getProvider } from "../../providers/index.ts";
import type { SpawnRole } from "./files/spawn-role.ts";
import { sleep } from "../runtime/process.ts";
import { recoverWrapperPids } from "./processes/recover-pids.ts";
import { answersPrompt } from "../prompts/agent.ts";
import type { SpawnWork } from "./files/input-folder.ts";
import { toAgent } from "../store/agents.ts";
import { agentEnv } from "./processes/session-env.ts";
import { AgentEnvStore, moveLegacyEnvs } from "./files/saved-env.ts";
import { launchSession, sessionFiles } from "./processes/launch-detached.ts";
import { agentPaths, troupeIn } from "./paths.ts";
import { modePrompt, PREVIEW_AGENT, type ModePrompt } from "./start/mode-prompt.ts";
import { worktreePath } from "../git/worktree.ts";
import { hashToken } from "./tokens.ts";
import { clearSignalFile } from "./files/signal.ts";
import { recordSignal } from "./sessions/session-signal.ts";
import { SessionWatcher } from "./sessions/session-watcher.ts";
import type { AgentDeps } from "./deps.ts";
import type { Caller } from "./caller.ts";
import type { Signal } from "../protocol/signal.ts";
import { Stopper, KILL_GRACE_MS } from "./processes/stopper.ts";
import { newMarker, nothingFound, SESSION_KEY_VAR } from "./processes/find.ts";
import { configLayers, mergeLayers } from "./permission-layers.ts";
import { isResumable, statusesPhrase } from "../protocol/status.ts";
import type { FailureClass } from "../protocol/failure.ts";
import { Lifecycle } from "./lifecycle/run-lifecycle.ts";
import { Attachments } from "./sessions/attach.ts";
import type { Attachment } from "../protocol/api-agents.ts";
import { Spawner, type SpawnOptions } from "./start/new-agent.ts";
import { Relaunch, type StartSession } from "./start/next-session.ts";
import { REMOVE_MARGIN_MS, removeAgent } from "./cleanup/remove-agent.ts";
import { announceOnly, type RunEnds } from "./lifecycle/run-ends.ts";

export type { SpawnOptions };
export type ResumeOptions = z.output<typeof ResumeRequestSchema>;

/** A page of stored output: after a chunk id (oldest first), or the newest before one. */
export interface OutputQuery {
  after?: number;
  before?: number;
  session?: number;
  limit?: number;
}

/** How long a stopping daemon waits for spawns and resumes under way. */
const LAUNCH_WAIT_MS = 10_000;

/**
 * Spawns, resumes, stops and completes agents, and answers every question about them. Adapters
 * (HTTP routes, MCP) call only its public methods; what follows a run that is over is the
 * declared end-of-run sequence it is given (`AgentDeps.ends`, src/services/end-of-run.ts).
 */
export class AgentService {
  private readonly watcher: SessionWatcher;
  private readonly stopper: Stopper;
  private readonly launching = new Set<Promise<unknown>>();
  /** Agents whose resume is under way (see resumeWith). */
  private readonly resuming = new Set<string>();
  private readonly envs: AgentEnvStore;
  private readonly spawner: Spawner;
  private readonly relaunch: Relaunch;
  private readonly lifecycle: Lifecycle;
  private readonly attachments: Attachments;
  /** What follows a stop and a removal (the daemon's declared sequences), or only their announcement. */
  private readonly ends: RunEnds;

  constructor(private readonly d: AgentDeps) {
    this.ends = d.ends ?? announceOnly(d.bus);
    this.stopper = new Stopper(d);
    this.envs = new AgentEnvStore(d.ws.stateDir);
    const launch = {
      ...d,
      envs: this.envs,
      provider: (name: string) => this.provider(name),
      startSession: ((...args) => this.startSession(...args)) satisfies StartSession,
      troupe: () => this.troupeCommand(),
    };
    this.spawner = new Spawner({ ...launch, failRun: (id, error) => this.failRun(id, error) });
    this.relaunch = new Relaunch({ ...launch, rulesOf: (rec) => this.rulesOf(rec) });
    this.lifecycle = new Lifecycle({
      ...d,
      stopper: this.stopper,
      isLive: (id) => this.watcher.isLive(id),
      flushActivity: () => this.watcher.flushActivity(),
      resume: (rec, prompt, onLaunch) => this.relaunch.resume(rec, prompt, onLaunch),
      respawn: (rec, onLaunch) => this.relaunch.respawn(rec, onLaunch),
      tracked: (launch) => this.tracked(launch),
      troupe: () => this.troupeCommand(),
    });
    this.watcher = new SessionWatcher(d, this.lifecycle.watcherHooks());
    this.attachments = new Attachments({
      ...d,
      envs: this.envs,
      watcher: this.watcher,
      leftovers: (id) => this.stopper.waitGone(id, KILL_GRACE_MS + REMOVE_MARGIN_MS),
      resuming: (id) => this.resuming.has(id),
      runEnv: (rec, env) => (d.accounts ? d.accounts.envFor(this.d.store.agents.get(rec.id) ?? rec, env) : env),
      restoreWorktree: (rec) => this.relaunch.restoreWorktree(rec),
      troupe: () => this.troupeCommand(),
    });
  }

  start(): void {
    // a daemon started by an agent's client inherits that agent's marker: its own children (git)
    // must not carry it, or stopping the agent would kill them (the daemon itself is never a match)
    delete process.env[SESSION_KEY_VAR];
    moveLegacyEnvs(this.d.store, this.envs, this.d.log);
    recoverWrapperPids(this.d.store, this.d.log);
    this.watcher.start();
    this.stopper.start();
    // retries an earlier daemon left pending, and the interrupted runs found at start
    this.lifecycle.start();
  }

  /** This troupe by absolute path, for prompts (a login shell may drop it from PATH). */
  troupeCommand(): string {
    return troupeIn(this.d.binDir);
  }

  /**
   * The prompt a mode agent spawned now with `work` would get, its id and name shown as
   * PREVIEW_AGENT's (`troupe prompt`): a mode run's worktree is `.troupe/worktrees/<name>`.
   */
  previewModePrompt(work: SpawnWork, providerName: string): ModePrompt {
    const { id, name } = PREVIEW_AGENT;
    const paths = agentPaths(this.d.ws.stateDir, name, worktreePath(this.d.ws.root, name));
    return modePrompt({ id, name, inputDir: paths.inputDir, troupe: this.troupeCommand(), provider: this.provider(providerName), work });
  }

  /** Lets launches under way finish (a process must not start unrecorded), then stops watching. */
  async shutdown(): Promise<void> {
    await Promise.race([Promise.allSettled(this.launching), sleep(LAUNCH_WAIT_MS)]);
    // a pending SIGKILL deadline stays in the store: the next daemon carries it out
    this.stopper.shutdown();
    this.lifecycle.shutdown();
    await this.watcher.stop();
  }

  /** Runs `launch` as one tracked launch, so that shutdown() can wait for it. */
  private tracked<T>(launch: Promise<T>): Promise<T> {
    this.launching.add(launch);
    return launch.finally(() => this.launching.delete(launch));
  }

  /** The caller a token proves (an agent's, per session); no token is the person. */
  identify(token: string | null): Caller {
    if (token === null) return { kind: "user" };
    const agent = this.d.store.agents.byTokenHash(hashToken(token));
    if (!agent) throw new TroupeError("unauthorized", "unknown agent token");
    return { kind: "agent", agent };
  }

  list(): Agent[] {
    return this.d.store.agents.list().map(toAgent);
  }

  /** By id or by name. */
  get(ref: string): Agent {
    return toAgent(this.find(ref));
  }

  /** The record by id or name (what authorization looks at); `agent_not_found` otherwise. */
  find(ref: string): AgentRecord {
    const rec = this.d.store.agents.find(ref);
    if (!rec) throw new TroupeError("agent_not_found", `no agent '${ref}'`);
    return rec;
  }

  /** Its work as lines of a diff, each with its file and numbers (src/git/agent-diff.ts). */
  diff(ref: string): Promise<DiffLine[]> {
    return agentDiff(this.get(ref), this.d.ws.root);
  }

  /** A page of the agent's stored output; an empty page is the end. */
  output(ref: string, q: OutputQuery): OutputChunk[] {
    const rec = this.find(ref);
    if (q.after !== undefined && q.before !== undefined) throw new TroupeError("bad_request", "give after or before, not both");
    return this.d.store.chunks.list(rec.id, q);
  }

  /** Stores `signal` as `rec`'s own, for its current session (see recordSignal). */
  signal(rec: AgentRecord, signal: Signal): void {
    recordSignal(this.d, rec, signal);
  }

  private provider(name: string): Provider {
    const p = getProvider(name);
    if (!p) throw new TroupeError("provider_unknown", `unknown provider '${name}' (see 'troupe providers')`);
    return p;
  }

  /**
   * `parentId`: the agent that asked for it (null: the person); it may then act on its child.
   * `work`: a mode run of the work model (src/work/modes.ts): its prompt is the mode's, its input
   * folder gets the mode's files, and `req.prompt` is only the run's one-line label.
   */
  spawn(req: SpawnOptions, parentId: string | null = null, work: SpawnWork | null = null, role: SpawnRole | null = null): Promise<Agent> {
    return this.tracked(this.spawner.spawn(req, parentId, work, role));
  }

  /** `failed`, with why: a spawn that could not start, or a mode run whose outputs cannot be used. */
  failRun(id: string, error: string): Agent {
    const failed = this.d.store.agents.update(id, { status: "failed", error });
    this.d.bus.publish({ type: "agent:updated", agent: toAgent(failed) });
    return toAgent(failed);
  }

  /** The agent's rules now: its own (spawn, "allow always") and the configs' as they are read today. */
  rulesOf(rec: AgentRecord): { allowedTools: string[]; deniedTools: string[] } {
    const merged = mergeLayers([
      { from: rec.name, allow: this.d.store.permissions.rules(rec.id, "allow"), deny: this.d.store.permissions.rules(rec.id, "deny") },
      ...configLayers(this.d.ws.stateDir, rec.provider),
    ]);
    return { allowedTools: merged.allow, deniedTools: merged.deny };
  }

  /**
   * Launches one session. `onLaunch` (what a resume clears: questions, result...) is applied only
   * once the process runs, so a launch that fails leaves the agent as it was, questions included.
   */
  private async startSession(rec: AgentRecord, session: number, cmd: ProviderCommand, token: string, onLaunch: AgentPatch, clientEnv: Record<string, string>, setup: string | null = null): Promise<Agent> {
    const { store, bus, ws } = this.d;
    const files = sessionFiles(agentPaths(ws.stateDir, rec.name, rec.worktree).logsDir, session);
    const marker = newMarker();
    const who = { id: rec.id, name: rec.name, token, signalFile: rec.signalFile, workspace: ws.root, socket: ws.socket, sessionKey: marker };
    // every run (a retry, a resume) on the agent's account as it is now, never one found spent
    let runEnv = clientEnv;
    try {
      if (this.d.accounts) runEnv = this.d.accounts.envFor(store.agents.get(rec.id) ?? rec, clientEnv);
    } catch (err) {
      if (session === 1) this.failRun(rec.id, errorMessage(err));
      throw err;
    }
    const env = agentEnv(runEnv, who, this.d.binDir);
    // the last run's signal goes, and never through a link the agent planted (nothing launched yet)
    try {
      clearSignalFile(rec.signalFile, ws.stateDir);
    } catch (err) {
      if (session === 1) this.failRun(rec.id, errorMessage(err));
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
      launched = await launchSession(cmd, rec.cwd, env, files, { setup });
    } catch (err) {
      store.sessions.end(rec.id, session, null);
      if (session === 1) this.failRun(rec.id, errorMessage(err));
      else bus.publish({ type: "agent:updated", agent: toAgent(store.agents.update(rec.id, previous)) });
      throw err;
    }
    store.sessions.setPid(rec.id, session, launched.pid, launched.pidStart);
    this.watcher.follow(sess, launched.pid, launched.pidStart, launched.child);
    if (store.agents.get(rec.id)?.status === "stopped") {
      // stopped while it was being launched: it never gets to run
      this.stopper.terminate(rec.id, session, () => {});
      return toAgent(store.agents.get(rec.id)!);
    }
    const updated = store.agents.update(rec.id, { ...onLaunch, status: "running", lastActivityAt: Date.now() });
    bus.publish({ type: "agent:updated", agent: toAgent(updated) });
    // what came for it since its prompt was built goes into its input, when it takes input mid-run
    if (cmd.stdinStream) this.d.input?.opened(rec.id, session);
    return toAgent(updated);
  }

  /** Answers to the agent's questions and/or a message, as a new session. */
  async resume(ref: string, req: ResumeOptions): Promise<Agent> {
    const rec = this.resumable(ref);
    const questions = rec.questions ?? [];
    for (const a of req.answers) {
      if (!questions.some((q) => q.id === a.id)) throw new TroupeError("bad_request", `${rec.name} asked no question '${a.id}'`);
    }
    if (!req.answers.length && !req.message) throw new TroupeError("bad_request", "give answers (--answer QID=TEXT) or a --message");
    const answered = req.answers.map((a) => ({ question: questions.find((q: Question) => q.id === a.id)!.question, answer: a.answer }));
    if (req.env) this.envs.save(rec.id, req.env);
    return this.resumeWith(rec.id, answersPrompt(this.troupeCommand(), answered, req.message));
  }

  /** What a new run started by someone (not a retry) clears: a fresh count of attempts. */
  private static readonly FRESH_RUN: AgentPatch = { questions: null, result: null, error: null, exitCode: null, failure: null, retryAt: null, attempt: 1 };

  /** Whether the agent could be resumed now: its status allows it, its provider can, and no resume is under way. */
  canResume(ref: string): boolean {
    const rec = this.d.store.agents.find(ref);
    if (!rec || !isResumable(rec.status) || this.resuming.has(rec.id)) return false;
    const provider = getProvider(rec.provider);
    return !!provider?.buildResume && (!!rec.providerSessionId || !!provider.resumesWithoutSession);
  }

  /** A new session of the same provider session, same folder, told `prompt` (a resumable agent only). */
  resumeWith(ref: string, prompt: string): Promise<Agent> {
    const rec = this.resumable(ref);
    // its status turns `starting` only once the launch begins: until then a second resume (a
    // question and a message waking it at once) would start a second process
    if (this.resuming.has(rec.id)) throw new TroupeError("invalid_state", `${rec.name} is being resumed already`);
    this.resuming.add(rec.id);
    return this.tracked(this.relaunch.resume(rec, prompt, AgentService.FRESH_RUN)).finally(() => this.resuming.delete(rec.id));
  }

  private resumable(ref: string): AgentRecord {
    const rec = this.find(ref);
    if (!isResumable(rec.status)) {
      throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; only a ${statusesPhrase("resumable")} agent can be resumed`);
    }
    // one process per agent: a stopped session's processes must be gone before a new one starts
    if (rec.status === "stopped") {
      const left = this.stopper.find(rec.id);
      if (!nothingFound(left)) throw new TroupeError("invalid_state", `${rec.name} is still stopping (pids ${[...left.pids, ...left.groups].join(", ")}); try again in a few seconds`);
    }
    return rec;
  }

  /**
   * Fails the agent's ended run with `failure` and `evidence` through the retry policy: the work
   * model reports a proposal file that does not parse this way (`bad_output`: the session is
   * resumed once with `evidence` as what is malformed). The agent is `starting` when a retry follows.
   */
  failRunWith(ref: string, failure: FailureClass, evidence: string): Agent {
    return this.lifecycle.failRun(this.find(ref), failure, evidence);
  }

  /** Blocked agents of `provider` retry now (`troupe account add` gave them an account); how many. */
  wakeBlocked(provider: string): number {
    return this.lifecycle.wakeBlocked(provider);
  }

  /** The person takes the agent's session over interactively (see Attachments). */
  attach(ref: string): Promise<Attachment> {
    return this.tracked(this.attachments.begin(this.find(ref)));
  }

  /** The attached session's interactive CLI runs as `pid`. */
  attachStarted(ref: string, session: number, pid: number): Agent {
    return this.attachments.started(this.find(ref), session, pid);
  }

  /** The attached session's interactive CLI exited: the agent goes back to its earlier status. */
  detach(ref: string, session: number, exitCode: number | null): Promise<Agent> {
    return this.attachments.end(this.find(ref), session, exitCode);
  }

  /**
   * `stopped` at once; whatever of it lives gets SIGTERM, then SIGKILL at a deadline kept in the
   * store. Repeating it is harmless and reaches whatever still lives (say, a child that setsid'd
   * after the first stop).
   */
  stop(ref: string): Agent {
    const rec = this.find(ref);
    let updated = rec;
    this.stopper.terminate(rec.id, rec.session, () => {
      // a pending retry is called off with the stop
      if (rec.status !== "stopped") updated = this.d.store.agents.update(rec.id, { status: "stopped", retryAt: null });
    });
    if (updated !== rec) {
      this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      this.ends.stopped(toAgent(updated));
    }
    return toAgent(updated);
  }

  /** Removes a finished agent (see removeAgent): worktree, logs, records; its branch stays. */
  remove(ref: string, opts: { force?: boolean } = {}): Promise<void> {
    return removeAgent({ ...this.d, ends: this.ends, stopper: this.stopper, watcher: this.watcher, envs: this.envs, find: (r) => this.find(r) }, ref, opts);
  }
}

