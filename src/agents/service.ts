import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { TroupeError, errorMessage } from "../errors.ts";
import type { Agent, Question } from "../protocol/entities.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { SpawnRequestSchema, ResumeRequestSchema } from "../protocol/api.ts";
import type { z } from "zod";
import type { AgentRecord, AgentPatch } from "../store/index.ts";
import type { Provider, ProviderCommand } from "../../providers/types.ts";
import { getProvider } from "../../providers/index.ts";
import { buildWithRole } from "../../providers/role.ts";
import { loadRole, saveRole, type SpawnRole } from "./role-file.ts";
import { sleep, which } from "../runtime/process.ts";
import { createWorktree, removeWorktree, restoreWorktree, troupeBranches } from "../git/worktree.ts";
import { dirtyPaths, saveAsCommit } from "../git/status.ts";
import { copyIncludes, trustedSetup } from "./setup.ts";
import { recoverWrapperPids } from "./adopt-pid.ts";
import { answersPrompt, buildAgentPrompt } from "../prompts/agent.ts";
import { buildModePrompt } from "../prompts/modes.ts";
import { writeInput, type SpawnWork } from "./input.ts";
import { toAgent } from "../store/agents.ts";
import { agentEnv } from "./env.ts";
import { AgentEnvStore, moveLegacyEnvs } from "./env-store.ts";
import { launchSession, sessionFiles } from "./launch.ts";
import { assertWithinArgLimit } from "./arg-limit.ts";
import { withTroupeMcp, writeMcpFiles } from "./mcp-config.ts";
import { uniqueName } from "./names.ts";
import { agentPaths } from "./paths.ts";
import { hashToken, newId, newToken } from "./tokens.ts";
import { clearSignalFile, readSignalFile } from "./signal-file.ts";
import { writeSignalAs } from "./signal-write.ts";
import { SessionWatcher } from "./watcher.ts";
import type { AgentDeps } from "./deps.ts";
import type { Caller } from "./caller.ts";
import type { Signal } from "../protocol/signal.ts";
import { Stopper, KILL_GRACE_MS } from "./stopper.ts";
import { newMarker, nothingFound, SESSION_KEY_VAR } from "./processes.ts";
import { providerConfig } from "../workspace-config.ts";
import { configLayers, mergeLayers, type PolicyLayer } from "./permission-layers.ts";
import { isLive, isResumable, statusesPhrase } from "../protocol/status.ts";
import type { FailureClass } from "../protocol/failure.ts";
import type { FailoverHook } from "./lifecycle/end.ts";
import { Lifecycle } from "./lifecycle/lifecycle.ts";
import { Attachments } from "./attach.ts";
import type { Attachment } from "../protocol/api-agents.ts";
import type { AccountPort } from "./accounts-port.ts";

/** What is left of the agent's budget, for a CLI that enforces one itself (claude --max-budget-usd). */
function budgetLeft(rec: AgentRecord): { budgetUsd?: number } {
  return rec.budgetUsd === null ? {} : { budgetUsd: Math.max(0, rec.budgetUsd - (rec.costUsd ?? 0)) };
}

export type SpawnOptions = z.output<typeof SpawnRequestSchema>;
export type ResumeOptions = z.output<typeof ResumeRequestSchema>;

/** A page of stored output: after a chunk id (oldest first), or the newest before one. */
export interface OutputQuery {
  after?: number;
  before?: number;
  session?: number;
  limit?: number;
}

/** "a, b or c", as the messages have always said it. */

/** How much longer than the kill grace `rm` waits for a stopped agent's processes to be gone. */
const REMOVE_MARGIN_MS = 3_000;
/** How long a stopping daemon waits for spawns and resumes under way. */
const LAUNCH_WAIT_MS = 10_000;

/**
 * Spawns, resumes, stops and completes agents, and answers every question about them. Adapters
 * (HTTP routes, MCP) call only its public methods; each session's end is published on the bus
 * as `agent:ended` for whoever follows agents (conversations, the work model).
 */
export class AgentService {
  private readonly watcher: SessionWatcher;
  private readonly stopper: Stopper;
  private readonly launching = new Set<Promise<unknown>>();
  /** Agents whose resume is under way (see resumeWith). */
  private readonly resuming = new Set<string>();
  /**
   * Names picked by spawns not yet recorded: a name is taken in the store only at the insert,
   * after awaits (branches, the worktree), so concurrent spawns (dispatch starts several) could
   * otherwise pick the same one and the second's `git worktree add -b` fail.
   */
  private readonly naming = new Set<string>();
  private readonly envs: AgentEnvStore;
  private readonly lifecycle: Lifecycle;
  private readonly attachments: Attachments;
  private accounts: AccountPort | null = null;

  constructor(private readonly d: AgentDeps) {
    this.stopper = new Stopper(d);
    this.lifecycle = new Lifecycle({
      ...d,
      stopper: this.stopper,
      isLive: (id) => this.watcher.isLive(id),
      resume: (rec, prompt, onLaunch) => this.resumeNow(rec, prompt, onLaunch),
      respawn: (rec, onLaunch) => this.respawnNow(rec, onLaunch),
      tracked: (launch) => this.tracked(launch),
      troupe: () => this.troupeCommand(),
      blockedUntil: (rec) => this.accounts?.earliestReset(rec.provider) ?? null,
    });
    this.watcher = new SessionWatcher(d, this.lifecycle.watcherHooks());
    this.envs = new AgentEnvStore(d.ws.stateDir);
    this.attachments = new Attachments({
      ...d,
      envs: this.envs,
      watcher: this.watcher,
      leftovers: (id) => this.stopper.waitGone(id, KILL_GRACE_MS + REMOVE_MARGIN_MS),
      resuming: (id) => this.resuming.has(id),
      runEnv: (rec, env) => (this.accounts ? this.accounts.envFor(this.d.store.agents.get(rec.id) ?? rec, env) : env),
      restoreWorktree: (rec) => this.restoreWorktree(rec),
      troupe: () => this.troupeCommand(),
    });
    this.watcher.setAttachedEnd((s) => this.attachments.ended(s));
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
    return join(this.d.binDir, "troupe");
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

  /** A page of the agent's stored output; an empty page is the end. */
  output(ref: string, q: OutputQuery): OutputChunk[] {
    const rec = this.find(ref);
    if (q.after !== undefined && q.before !== undefined) throw new TroupeError("bad_request", "give after or before, not both");
    return this.d.store.chunks.list(rec.id, q);
  }

  /**
   * Stores `signal` as `rec`'s own: the daemon writes that agent's signal file (never a path a
   * caller names), and its session's end reads it as it reads one the agent wrote itself.
   */
  signal(rec: AgentRecord, signal: Signal): void {
    writeSignalAs(rec.signalFile, this.d.ws.stateDir, signal);
    const read = readSignalFile(rec.signalFile);
    if (read.kind !== "ok") throw new TroupeError("internal", `${rec.signalFile} did not read back: ${"reason" in read ? read.reason : read.kind}`);
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
    const claim: { name: string | null } = { name: null };
    return this.tracked(
      this.spawnNow(req, parentId, work, role, claim).finally(() => {
        if (claim.name) this.naming.delete(claim.name);
      }),
    );
  }

  /** `failed`, with why: a spawn that could not start, or a mode run whose outputs cannot be used. */
  failRun(id: string, error: string): Agent {
    const failed = this.d.store.agents.update(id, { status: "failed", error });
    this.d.bus.publish({ type: "agent:updated", agent: toAgent(failed) });
    return toAgent(failed);
  }

  private async spawnNow(req: SpawnOptions, parentId: string | null, work: SpawnWork | null, role: SpawnRole | null, claim: { name: string | null }): Promise<Agent> {
    const provider = this.provider(req.provider ?? "generic");
    if (provider.binary === null && !req.command?.trim()) throw new TroupeError("bad_request", `the ${provider.name} provider needs a command`);
    if (provider.binary !== null && !work && !req.prompt?.trim()) throw new TroupeError("bad_request", "a prompt is needed");
    if (provider.binary !== null && !which(provider.binary, req.env.PATH ?? process.env.PATH ?? "")) {
      throw new TroupeError("bad_request", `${provider.binary} is not installed: ${provider.install}`);
    }
    const config = providerConfig(this.d.ws.stateDir, provider.name);
    const { agents } = this.d.store;
    // a removed agent's branch stays, so its name stays taken for worktrees
    const branches = req.worktree ? await troupeBranches(this.d.ws.root) : new Set<string>();
    const taken = (n: string) => this.naming.has(n) || agents.nameTaken(n) || branches.has(n);
    if (req.name && taken(req.name)) throw new TroupeError("conflict", `the name '${req.name}' is taken (an agent or a troupe/${req.name} branch)`);
    const name = req.name ?? uniqueName(taken);
    this.naming.add(name);
    claim.name = name;
    // chosen before anything is created: a spent or unknown account refuses the spawn
    const accountId = this.accounts ? this.accounts.choose(provider.name, req.account ?? null) : null;
    if (req.account && !this.accounts) throw new TroupeError("bad_request", "accounts are not available in this daemon");
    const id = newId("ag");
    const token = newToken();
    const prompt = req.prompt ?? null;
    const model = req.model ?? config.model ?? null;
    // the agent's own layers (spawn flags, its profile, its initiative) are kept with it; the configs' are read at each use
    const own = this.ownLayers(req, role, work?.initiativeId ?? null);
    const policy = mergeLayers([...own, ...configLayers(this.d.ws.stateDir, provider.name)]);
    // modes do not choose permissions, but a mode agent must be able to write its output files
    const permissions = work && policy.mode === "plan" ? "edits" : policy.mode;
    // refused before anything exists when the config's setup command is not trusted
    const setup = req.worktree ? trustedSetup(this.d.ws.stateDir) : null;
    const wt = req.worktree ? await createWorktree(this.d.ws.root, name, req.baseRef) : null;
    if (wt) {
      this.d.store.branches.record(wt.branch, id);
      await copyIncludes(this.d.ws.root, this.d.ws.stateDir, wt.path, this.d.log).catch((err) => this.d.log.warn(`copying included files into ${wt.path}`, err));
    }
    const cwd = wt?.path ?? this.d.ws.root;
    const paths = agentPaths(this.d.ws.stateDir, name, wt?.path ?? null);
    const troupe = this.troupeCommand();
    const files = work?.files.map((f) => f.path) ?? [];
    const fullPrompt = work
      ? buildModePrompt({ id, name, mode: work.mode, inputDir: paths.inputDir, troupe, initiativeId: work.initiativeId, phaseId: work.phaseId, taskId: work.taskId, files })
      : buildAgentPrompt({ id, name, prompt: prompt ?? "", inputDir: paths.inputDir, troupe });
    // built before the agent is recorded: a provider that refuses the input leaves nothing behind
    let cmd: ProviderCommand;
    let mcpFiles: Record<string, string>;
    try {
      const built = buildWithRole(provider, {
        prompt: fullPrompt,
        cwd,
        model: model ?? undefined,
        permissions,
        allowedTools: policy.allow,
        deniedTools: policy.deny,
        command: req.command,
        env: req.env,
        ...(req.budgetUsd !== undefined && { budgetUsd: req.budgetUsd }),
        instructions: role?.instructions,
        mcpServers: role?.mcpServers,
      });
      ({ cmd, files: mcpFiles } = withTroupeMcp(provider, built, troupe, paths.inputDir));
      assertWithinArgLimit(cmd.argv, { ...req.env, ...cmd.env });
    } catch (err) {
      if (wt) await removeWorktree(this.d.ws.root, wt.path).catch((e) => this.d.log.warn(`removing worktree ${wt.path} of a refused spawn`, e));
      throw err;
    }
    const rec = agents.insert({
      id,
      name,
      provider: provider.name,
      prompt,
      command: req.command ?? null,
      model,
      cwd,
      worktree: wt?.path ?? null,
      branch: wt?.branch ?? null,
      baseRef: wt ? wt.baseRef : null,
      permissions,
      tokenHash: hashToken(token),
      signalFile: paths.signalFile,
      parentId,
      mode: work?.mode ?? null,
      initiativeId: work?.initiativeId ?? null,
      phaseId: work?.phaseId ?? null,
      taskId: work?.taskId ?? null,
      budgetUsd: req.budgetUsd ?? null,
      timeoutMs: req.timeoutMs ?? null,
      idleTimeoutMs: req.idleTimeoutMs ?? null,
      accountId,
    });
    const ownRules = mergeLayers(own);
    this.d.store.permissions.addRules(rec.id, "allow", ownRules.allow, "spawn");
    this.d.store.permissions.addRules(rec.id, "deny", ownRules.deny, "spawn");
    this.d.bus.publish({ type: "agent:created", agent: toAgent(rec) });
    try {
      this.envs.save(rec.id, req.env);
      if (role) saveRole(this.envs.dir(rec.id), role);
      this.writeInput(rec, paths.inputDir, wt?.baseCommit ?? null, work && { ...work, prompt: fullPrompt });
      writeMcpFiles(mcpFiles);
    } catch (err) {
      this.failRun(rec.id, `could not write the agent's input: ${errorMessage(err)}`);
      throw err;
    }
    return this.startSession(rec, 1, cmd, token, {}, req.env, setup);
  }

  /** The layers a spawn states for itself, in precedence order: its flags (a profile's mode is merged into them), its profile's rules, its initiative's policy. */
  private ownLayers(req: SpawnOptions, role: SpawnRole | null, initiativeId: string | null): PolicyLayer[] {
    const initiative = initiativeId ? this.d.store.initiatives.get(initiativeId) : null;
    return [
      { from: "the spawn", mode: req.permissions, allow: req.allow, deny: req.deny },
      ...(role ? [{ from: `profile ${role.profile}`, allow: role.allowedTools, deny: role.deny }] : []),
      ...(initiative?.permissions ? [{ from: `initiative ${initiative.slug}`, ...initiative.permissions }] : []),
    ];
  }

  /** The agent's rules now: its own (spawn, "allow always") and the configs' as they are read today. */
  rulesOf(rec: AgentRecord): { allowedTools: string[]; deniedTools: string[] } {
    const merged = mergeLayers([
      { from: rec.name, allow: this.d.store.permissions.rules(rec.id, "allow"), deny: this.d.store.permissions.rules(rec.id, "deny") },
      ...configLayers(this.d.ws.stateDir, rec.provider),
    ]);
    return { allowedTools: merged.allow, deniedTools: merged.deny };
  }

  private writeInput(rec: AgentRecord, dir: string, baseCommit: string | null, work: (SpawnWork & { prompt: string }) | null): void {
    const manifest = {
      agentId: rec.id,
      agentName: rec.name,
      ...(work && {
        mode: work.mode,
        initiativeId: work.initiativeId,
        ...(work.phaseId && { phaseId: work.phaseId }),
        ...(work.taskId && { taskId: work.taskId }),
        files: work.files.map((f) => f.path),
      }),
      id: rec.id,
      name: rec.name,
      provider: rec.provider,
      model: rec.model,
      branch: rec.branch,
      baseRef: rec.baseRef,
      baseCommit,
      workspace: this.d.ws.root,
      createdAt: rec.createdAt,
    };
    // a mode agent's prompt.md is its whole prompt: it can read it again after losing context
    writeInput(dir, work?.prompt ?? rec.prompt ?? rec.command ?? "", manifest, work?.files);
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
      if (this.accounts) runEnv = this.accounts.envFor(store.agents.get(rec.id) ?? rec, clientEnv);
    } catch (err) {
      if (session === 1) this.failRun(rec.id, errorMessage(err));
      throw err;
    }
    const env = agentEnv(runEnv, who, this.d.binDir);
    clearSignalFile(rec.signalFile);
    mkdirSync(dirname(rec.signalFile), { recursive: true });
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
    return this.tracked(this.resumeNow(rec, prompt, AgentService.FRESH_RUN)).finally(() => this.resuming.delete(rec.id));
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

  private async resumeNow(rec: AgentRecord, prompt: string, onLaunch: AgentPatch): Promise<Agent> {
    const provider = this.provider(rec.provider);
    if (!provider.buildResume) throw new TroupeError("invalid_state", `the ${provider.name} provider cannot resume a session`);
    if (!rec.providerSessionId && !provider.resumesWithoutSession) throw new TroupeError("invalid_state", `${rec.name} reported no session id to resume`);
    const clientEnv = this.envs.load(rec.id, rec.name);
    const setup = await this.restoreWorktree(rec);
    const session = rec.session + 1;
    // queued messages lead the prompt, delivered to this session in the step that launches it
    const mail = this.d.mail?.claim(rec.id, session) ?? null;
    try {
      const token = newToken();
      const role = loadRole(this.envs.dir(rec.id));
      const built = provider.buildResume({
        prompt: mail ? `${mail.text}\n\n${prompt}` : prompt,
        cwd: rec.cwd,
        model: rec.model ?? undefined,
        sessionId: rec.providerSessionId ?? "",
        permissions: rec.permissions,
        ...this.rulesOf(rec),
        // a system prompt holds for the run it is given to; the session's history already holds a prompted role
        ...(provider.takesSystemPrompt && role && { instructions: role.instructions }),
        ...(role?.mcpServers && { mcpServers: role.mcpServers }),
        command: rec.command ?? undefined,
        env: clientEnv,
        ...budgetLeft(rec),
      });
      const { cmd, files } = withTroupeMcp(provider, built, this.troupeCommand(), agentPaths(this.d.ws.stateDir, rec.name, rec.worktree).inputDir);
      assertWithinArgLimit(cmd.argv, { ...clientEnv, ...cmd.env });
      writeMcpFiles(files);
      this.d.store.agents.setTokenHash(rec.id, hashToken(token));
      return await this.startSession(rec, session, cmd, token, onLaunch, clientEnv, setup);
    } catch (err) {
      mail?.release();
      throw err;
    }
  }

  /**
   * A worktree removed since (idle past `worktree.keepDays`, by hand) is made again from the
   * agent's branch, made ready as a new one is; returns the setup command it needs (or null).
   */
  private async restoreWorktree(rec: AgentRecord): Promise<string | null> {
    if (!rec.worktree || !rec.branch || existsSync(rec.worktree)) return null;
    const setup = trustedSetup(this.d.ws.stateDir);
    await restoreWorktree(this.d.ws.root, rec.worktree, rec.branch);
    await copyIncludes(this.d.ws.root, this.d.ws.stateDir, rec.worktree, this.d.log).catch((err) => this.d.log.warn(`copying included files into ${rec.worktree}`, err));
    this.d.log.info(`${rec.name}: recreated its worktree from ${rec.branch}`);
    return setup;
  }

  /** The run again from its task, a fresh provider session: for a run that never got going. */
  private async respawnNow(rec: AgentRecord, onLaunch: AgentPatch): Promise<Agent> {
    const provider = this.provider(rec.provider);
    const setup = await this.restoreWorktree(rec);
    const clientEnv = this.envs.load(rec.id, rec.name);
    const token = newToken();
    const paths = agentPaths(this.d.ws.stateDir, rec.name, rec.worktree);
    // a mode agent's whole prompt is its input's prompt.md (written at spawn)
    const prompt = rec.mode
      ? readFileSync(join(paths.inputDir, "prompt.md"), "utf8")
      : buildAgentPrompt({ id: rec.id, name: rec.name, prompt: rec.prompt ?? "", inputDir: paths.inputDir, troupe: this.troupeCommand() });
    const role = loadRole(this.envs.dir(rec.id));
    const built = buildWithRole(provider, {
      prompt,
      cwd: rec.cwd,
      model: rec.model ?? undefined,
      permissions: rec.permissions,
      ...this.rulesOf(rec),
      command: rec.command ?? undefined,
      env: clientEnv,
      instructions: role?.instructions,
      mcpServers: role?.mcpServers,
      ...budgetLeft(rec),
    });
    const { cmd, files } = withTroupeMcp(provider, built, this.troupeCommand(), agentPaths(this.d.ws.stateDir, rec.name, rec.worktree).inputDir);
    assertWithinArgLimit(cmd.argv, { ...clientEnv, ...cmd.env });
    writeMcpFiles(files);
    this.d.store.agents.setTokenHash(rec.id, hashToken(token));
    return this.startSession(rec, rec.session + 1, cmd, token, onLaunch, clientEnv, setup);
  }

  /**
   * Fails the agent's ended run with `failure` and `evidence` through the retry policy: the work
   * model reports a proposal file that does not parse this way (`bad_output`: the session is
   * resumed once with `evidence` as what is malformed). The agent is `starting` when a retry follows.
   */
  failRunWith(ref: string, failure: FailureClass, evidence: string): Agent {
    return this.lifecycle.failRun(this.find(ref), failure, evidence);
  }

  /** Where failover between accounts plugs in: called on `usage_limit` (none: not retried). */
  setFailover(hook: FailoverHook | null): void {
    this.lifecycle.setFailover(hook);
  }

  /** The user's accounts: which one each agent runs on, and its credential in each run's environment. */
  setAccounts(port: AccountPort | null): void {
    this.accounts = port;
  }

  /** Blocked agents of `provider` retry now (`troupe account add` gave them an account); how many. */
  wakeBlocked(provider: string): number {
    return this.lifecycle.wakeBlocked(provider);
  }

  /** Who knows when an agent waits on purpose (in `listen`, on an answer): the conversations. */
  setPurposefulWait(check: (agentId: string) => boolean): void {
    this.lifecycle.setPurposefulWait(check);
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
    if (updated !== rec) this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
    return toAgent(updated);
  }

  /**
   * Removes a finished agent: its worktree (the branch stays, with its commits), its logs, its
   * records. A worktree with uncommitted changes is refused, naming them; `force` first saves them
   * as a commit on the agent's branch, so nothing is lost either way.
   */
  async remove(ref: string, opts: { force?: boolean } = {}): Promise<void> {
    let rec = this.find(ref);
    if (isLive(rec.status)) throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; stop it first`);
    // its processes may outlive its status (one that ignores SIGTERM, one that setsid'd): the stop
    // is finished before its records go, or nothing would be left to find them by
    if (this.stopper.terminate(rec.id, rec.session, () => {})) {
      const deadline = Date.now() + KILL_GRACE_MS + REMOVE_MARGIN_MS;
      const left = await this.stopper.waitGone(rec.id, deadline - Date.now());
      if (!nothingFound(left)) {
        throw new TroupeError("invalid_state", `${rec.name}'s processes survive SIGKILL (pids ${left.pids.join(", ")}); not removed`);
      }
      while (this.watcher.isLive(rec.id) && Date.now() < deadline) await sleep(50);
      const now = this.d.store.agents.get(rec.id);
      if (!now) return; // removed by another call meanwhile
      if (isLive(now.status)) throw new TroupeError("invalid_state", `${now.name} is ${now.status}; stop it first`);
      rec = now;
    }
    if (this.watcher.isLive(rec.id)) throw new TroupeError("invalid_state", `${rec.name} is still shutting down; try again in a few seconds`);
    if (rec.worktree && existsSync(rec.worktree)) await this.keepChanges(rec, !!opts.force);
    if (rec.worktree) {
      try {
        await removeWorktree(this.d.ws.root, rec.worktree);
      } catch (err) {
        this.d.log.warn(`removing worktree ${rec.worktree}`, err);
      }
    }
    const paths = agentPaths(this.d.ws.stateDir, rec.name, rec.worktree);
    rmSync(paths.logsDir, { recursive: true, force: true });
    rmSync(join(this.d.ws.stateDir, "agents", rec.name), { recursive: true, force: true });
    this.envs.remove(rec.id);
    const children = this.d.store.agents.list().filter((a) => a.parentId === rec.id);
    this.d.store.agents.delete(rec.id);
    this.watcher.releaseSpace();
    this.d.bus.publish({ type: "agent:removed", agentId: rec.id });
    // its workers now hang under its own parent: dashboards see them move without a new snapshot
    for (const child of children) {
      const moved = this.d.store.agents.get(child.id);
      if (moved) this.d.bus.publish({ type: "agent:updated", agent: toAgent(moved) });
    }
  }

  /** Refuses to lose uncommitted changes: names them, or with `force` commits them on the branch. */
  private async keepChanges(rec: AgentRecord, force: boolean): Promise<void> {
    const dirty = await dirtyPaths(rec.worktree!);
    if (!dirty.length) return;
    if (!force) {
      throw new TroupeError("dirty_worktree", `${rec.name}'s worktree has uncommitted changes: ${listPaths(dirty)}; commit them, or 'troupe rm --force' saves them as a commit on ${rec.branch}`);
    }
    let env: Record<string, string> = {};
    try {
      env = this.envs.load(rec.id, rec.name);
    } catch {
      // no saved identity: the commit is troupe's
    }
    const commit = await saveAsCommit(rec.worktree!, dirty, `troupe: uncommitted changes of ${rec.name}, saved at rm --force`, env);
    this.d.log.info(`${rec.name}: saved ${dirty.length} uncommitted path(s) as ${commit} on ${rec.branch}`);
  }
}

/** Up to 10 paths, then how many more. */
export function listPaths(paths: string[]): string {
  const shown = paths.slice(0, 10).join(", ");
  return paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown;
}
