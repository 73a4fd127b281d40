import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { TroupeError } from "../errors.ts";
import type { Agent, Question } from "../protocol/entities.ts";
import type { OutputChunk } from "../protocol/output.ts";
import type { SpawnRequestSchema, ResumeRequestSchema } from "../protocol/api.ts";
import type { z } from "zod";
import type { Store, AgentRecord, AgentPatch } from "../store/index.ts";
import type { EventBus } from "../daemon/bus.ts";
import type { Logger } from "../daemon/log.ts";
import type { Workspace } from "../workspace.ts";
import type { Provider, ProviderCommand } from "../../providers/types.ts";
import { getProvider } from "../../providers/index.ts";
import { createWorktree, removeWorktree } from "../git/worktree.ts";
import { answersPrompt, buildAgentPrompt, incomingQuestionPrompt } from "../prompts/agent.ts";
import { toAgent } from "../store/agents.ts";
import { agentEnv } from "./env.ts";
import { launchSession, sessionFiles } from "./launch.ts";
import { uniqueName } from "./names.ts";
import { agentPaths } from "./paths.ts";
import { hashToken, newId, newToken } from "./tokens.ts";
import { Tailer } from "./tailer.ts";
import { Supervisor } from "./supervisor.ts";
import { clearSignalFile, readSignalFile } from "./signal-file.ts";
import { completionPatch } from "./completion.ts";
import { describeFailure, diagnose } from "./failure.ts";
import { isProcessAlive, signalGroup } from "../process-info.ts";
import { outputMetadata } from "./metadata.ts";
import { providerConfig } from "../workspace-config.ts";

type Spawn = z.output<typeof SpawnRequestSchema>;
type Resume = z.output<typeof ResumeRequestSchema>;

const KILL_GRACE_MS = 5_000;

export interface ServiceDeps {
  ws: Workspace;
  store: Store;
  bus: EventBus;
  log: Logger;
  /** Put first on every agent's PATH: the folder holding this troupe. */
  binDir: string;
}

/** Spawns, resumes, stops and completes agents; the daemon's routes call only this. */
export class AgentService {
  readonly tailer: Tailer;
  readonly supervisor: Supervisor;
  private readonly lastActivity = new Map<string, number>();

  constructor(private readonly d: ServiceDeps) {
    this.tailer = new Tailer(d.store.chunks, (c) => this.onChunk(c), d.log);
    this.supervisor = new Supervisor((id, session, code) => this.onExit(id, session, code));
  }

  /** Picks up every session an earlier daemon left open: follows live ones, completes dead ones once. */
  start(): void {
    this.tailer.start(join(this.d.ws.stateDir, "logs"));
    this.supervisor.start();
    for (const s of this.d.store.sessions.open()) {
      if (s.pid !== null && isProcessAlive(s.pid, s.pidStart)) {
        this.tailer.add(s);
        this.supervisor.track({ agentId: s.agentId, session: s.session, pid: s.pid, pidStart: s.pidStart, exitPath: s.exitPath, child: null });
        this.d.log.info(`adopted ${s.agentId} session ${s.session} (pid ${s.pid})`);
      } else {
        this.onExit(s.agentId, s.session, null);
      }
    }
  }

  async stop(): Promise<void> {
    this.supervisor.stop();
    await this.tailer.stop();
  }

  find(ref: string): AgentRecord {
    const rec = this.d.store.agents.find(ref);
    if (!rec) throw new TroupeError("agent_not_found", `no agent '${ref}'`);
    return rec;
  }

  private provider(name: string): Provider {
    const p = getProvider(name);
    if (!p) throw new TroupeError("provider_unknown", `unknown provider '${name}' (see 'troupe providers')`);
    return p;
  }

  async spawn(req: Spawn): Promise<Agent> {
    const provider = this.provider(req.provider);
    if (provider.binary === null && !req.command) throw new TroupeError("bad_request", `the ${provider.name} provider needs a command`);
    if (provider.binary !== null && !req.prompt?.trim()) throw new TroupeError("bad_request", "a prompt is needed");
    if (provider.binary !== null && !Bun.which(provider.binary, { PATH: req.env.PATH ?? process.env.PATH ?? "" })) {
      throw new TroupeError("spawn_failed", `${provider.binary} is not installed: ${provider.install}`);
    }
    const config = providerConfig(this.d.ws.stateDir, provider.name);
    const { agents } = this.d.store;
    if (req.name && agents.nameTaken(req.name)) throw new TroupeError("conflict", `an agent named '${req.name}' exists`);
    const name = req.name ?? uniqueName((n) => agents.nameTaken(n));
    const wt = req.worktree ? await createWorktree(this.d.ws.root, name, req.baseRef) : null;
    const paths = agentPaths(this.d.ws.stateDir, name, wt?.path ?? null);
    const id = newId("ag");
    const token = newToken();
    const prompt = req.prompt ?? null;
    const rec = agents.insert({
      id,
      name,
      provider: provider.name,
      prompt,
      command: req.command ?? null,
      model: req.model ?? config.model ?? null,
      cwd: wt?.path ?? this.d.ws.root,
      worktree: wt?.path ?? null,
      branch: wt?.branch ?? null,
      baseRef: wt ? wt.baseRef : null,
      permissions: req.permissions ?? config.permissions ?? "skip",
      tokenHash: hashToken(token),
      signalFile: paths.signalFile,
      env: req.env,
    });
    this.writeInput(rec, paths.inputDir, wt?.baseCommit ?? null);
    this.d.bus.publish({ type: "agent:created", agent: toAgent(rec) });
    const cmd = provider.buildSpawn({
      prompt: buildAgentPrompt({ id, name, prompt: prompt ?? "" }),
      cwd: rec.cwd,
      model: rec.model ?? undefined,
      permissions: rec.permissions,
      allowedTools: config.allowedTools,
      command: rec.command ?? undefined,
      env: rec.env,
    });
    return this.startSession(rec, 1, cmd, token);
  }

  private writeInput(rec: AgentRecord, dir: string, baseCommit: string | null): void {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "prompt.md"), rec.prompt ?? rec.command ?? "");
    const manifest = {
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
    writeFileSync(join(dir, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  }

  private async startSession(rec: AgentRecord, session: number, cmd: ProviderCommand, token: string): Promise<Agent> {
    const { store, bus, ws } = this.d;
    clearSignalFile(rec.signalFile);
    mkdirSync(dirname(rec.signalFile), { recursive: true });
    const files = sessionFiles(agentPaths(ws.stateDir, rec.name, rec.worktree).logsDir, session);
    const sess = store.sessions.insert({ agentId: rec.id, session, ...files });
    store.agents.update(rec.id, { session, status: "starting" });
    const env = agentEnv(rec.env, { id: rec.id, name: rec.name, token, signalFile: rec.signalFile, workspace: ws.root, socket: ws.socket }, this.d.binDir);
    try {
      const launched = await launchSession(cmd, rec.cwd, env, files);
      store.sessions.setPid(rec.id, session, launched.pid, launched.pidStart);
      this.tailer.add({ ...sess, pid: launched.pid });
      const updated = store.agents.update(rec.id, { status: "running", lastActivityAt: Date.now() });
      bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      this.supervisor.track({ agentId: rec.id, session, pid: launched.pid, pidStart: launched.pidStart, exitPath: files.exitPath, child: launched.child });
      return toAgent(store.agents.get(rec.id)!);
    } catch (err) {
      store.sessions.end(rec.id, session, null);
      const failed = store.agents.update(rec.id, { status: "failed", error: (err as Error).message });
      bus.publish({ type: "agent:updated", agent: toAgent(failed) });
      throw err;
    }
  }

  async resume(ref: string, req: Resume): Promise<Agent> {
    const rec = this.find(ref);
    if (!["waiting", "done", "failed"].includes(rec.status)) {
      throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; only a waiting, done or failed agent can be resumed`);
    }
    const questions = rec.questions ?? [];
    for (const a of req.answers) {
      if (!questions.some((q) => q.id === a.id)) throw new TroupeError("bad_request", `${rec.name} asked no question '${a.id}'`);
    }
    if (!req.answers.length && !req.message) throw new TroupeError("bad_request", "give answers (--answer QID=TEXT) or a --message");
    const answered = req.answers.map((a) => ({ question: questions.find((q: Question) => q.id === a.id)!.question, answer: a.answer }));
    if (req.env) this.d.store.agents.update(rec.id, { env: req.env });
    return this.resumeWith(this.find(rec.id), answersPrompt(answered, req.message));
  }

  /** A new session of the same provider session, same folder, told `prompt`. */
  async resumeWith(rec: AgentRecord, prompt: string): Promise<Agent> {
    const provider = this.provider(rec.provider);
    if (!provider.buildResume) throw new TroupeError("invalid_state", `the ${provider.name} provider cannot resume a session`);
    if (!rec.providerSessionId && !provider.resumesWithoutSession) throw new TroupeError("invalid_state", `${rec.name} reported no session id to resume`);
    const token = newToken();
    this.d.store.agents.setTokenHash(rec.id, hashToken(token));
    this.d.store.agents.update(rec.id, { questions: null, result: null, error: null, exitCode: null });
    const cmd = provider.buildResume({
      prompt,
      cwd: rec.cwd,
      model: rec.model ?? undefined,
      sessionId: rec.providerSessionId ?? "",
      permissions: rec.permissions,
      allowedTools: providerConfig(this.d.ws.stateDir, provider.name).allowedTools,
      command: rec.command ?? undefined,
      env: rec.env,
    });
    return this.startSession(rec, rec.session + 1, cmd, token);
  }

  stopAgent(ref: string): Agent {
    const rec = this.find(ref);
    if (rec.status === "stopped") return toAgent(rec);
    const updated = this.d.store.agents.update(rec.id, { status: "stopped" });
    this.d.bus.publish({ type: "agent:updated", agent: toAgent(updated) });
    const sess = this.d.store.sessions.get(rec.id, rec.session);
    if (sess?.pid && sess.endedAt === null) {
      const { pid, pidStart } = sess;
      signalGroup(pid, "SIGTERM");
      setTimeout(() => {
        if (isProcessAlive(pid, pidStart)) signalGroup(pid, "SIGKILL");
      }, KILL_GRACE_MS).unref();
    }
    return toAgent(updated);
  }

  /** Removes a finished agent: its worktree (the branch stays, with its commits), its logs, its records. */
  async remove(ref: string): Promise<void> {
    const rec = this.find(ref);
    if (rec.status === "running" || rec.status === "starting") throw new TroupeError("invalid_state", `${rec.name} is ${rec.status}; stop it first`);
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
    this.d.store.agents.delete(rec.id);
    this.d.bus.publish({ type: "agent:removed", agentId: rec.id });
  }

  /** An idle agent that is asked a question is resumed to answer it. */
  async wakeForQuestion(agentId: string, conv: { id: string; fromName: string; question: string }): Promise<void> {
    const rec = this.d.store.agents.get(agentId);
    if (!rec || rec.status !== "done") return;
    const provider = getProvider(rec.provider);
    if (!provider?.buildResume || (!rec.providerSessionId && !provider.resumesWithoutSession)) return;
    await this.resumeWith(rec, incomingQuestionPrompt(conv));
  }

  private onChunk(chunk: OutputChunk): void {
    const { store, bus } = this.d;
    bus.publish({ type: "agent:output", chunk });
    const ctx = store.agents.outputContext(chunk.agentId);
    if (!ctx) return;
    const patch: AgentPatch = outputMetadata(getProvider(ctx.provider), chunk, ctx);
    const now = Date.now();
    if (Object.keys(patch).length) {
      const updated = store.agents.update(chunk.agentId, { ...patch, lastActivityAt: now });
      bus.publish({ type: "agent:updated", agent: toAgent(updated) });
      this.lastActivity.set(chunk.agentId, now);
    } else if (now - (this.lastActivity.get(chunk.agentId) ?? 0) > 2_000) {
      // activity alone is not worth an event; the next update carries it
      store.agents.update(chunk.agentId, { lastActivityAt: now });
      this.lastActivity.set(chunk.agentId, now);
    }
  }

  private onExit(agentId: string, session: number, exitCode: number | null): void {
    const { store, bus, log } = this.d;
    const sess = store.sessions.get(agentId, session);
    if (!sess) return;
    this.tailer.finish(sess);
    const rec = store.agents.get(agentId);
    if (!rec) return;
    const updated = store.db.transaction(() => {
      if (!store.sessions.end(agentId, session, exitCode)) return null;
      if (rec.session !== session) return null;
      if (rec.status === "stopped") return store.agents.update(agentId, { exitCode });
      const patch = completionPatch(readSignalFile(rec.signalFile), exitCode);
      if (patch.status === "failed" && readSignalFile(rec.signalFile).kind !== "ok") {
        const provider = getProvider(rec.provider);
        const why = provider ? diagnose(provider, store.chunks.list(agentId, { before: Number.MAX_SAFE_INTEGER, session, limit: 16 })) : null;
        if (why) patch.error = `${describeFailure(why)}; ${patch.error}`;
      }
      return store.agents.update(agentId, patch);
    })();
    if (!updated) return;
    log.info(`${rec.name} session ${session} ended (exit ${exitCode}): ${updated.status}`);
    bus.publish({ type: "agent:updated", agent: toAgent(updated) });
    if (updated.status === "done") {
      const next = store.conversations.list({ pending: true }).find((c) => c.toId === agentId && c.status === "pending");
      if (next) this.wakeForQuestion(agentId, next).catch((err) => log.warn(`could not wake ${rec.name}`, err));
    }
  }
}
