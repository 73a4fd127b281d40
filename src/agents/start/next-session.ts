import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { TroupeError } from "../../errors.ts";
import { readGuardedText } from "../../guarded-fs.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { AgentPatch, AgentRecord } from "../../store/index.ts";
import type { Provider, ProviderCommand } from "../../../providers/types.ts";
import { buildWithRole } from "../../../providers/role.ts";
import { restoreWorktree } from "../../git/worktree.ts";
import { buildAgentPrompt } from "../../prompts/agent.ts";
import type { AgentDeps } from "../deps.ts";
import type { AgentEnvStore } from "../files/saved-env.ts";
import { assertWithinArgLimit } from "../processes/arg-limit.ts";
import { withTroupeMcp, writeMcpFiles } from "./mcp-config.ts";
import { agentPaths } from "../paths.ts";
import { loadRole } from "../files/spawn-role.ts";
import { copyIncludes, worktreePrep } from "./worktree-setup.ts";
import { leasePorts } from "./ports.ts";
import { portsConfig } from "../../workspace-config.ts";
import { hashToken, newToken } from "../tokens.ts";

/** Launches one session of a recorded agent (start-session.ts). */
export type StartSession = (rec: AgentRecord, session: number, cmd: ProviderCommand, token: string, onLaunch: AgentPatch, clientEnv: Record<string, string>, setup?: string | null) => Promise<Agent>;

export interface RelaunchDeps extends AgentDeps {
  envs: AgentEnvStore;
  provider(name: string): Provider;
  /** The agent's permission rules now (its own and the configs'). */
  rulesOf(rec: AgentRecord): { allowedTools: string[]; deniedTools: string[] };
  startSession: StartSession;
  troupe(): string;
}

/** What is left of the agent's budget, for a CLI that enforces one itself (claude --max-budget-usd). */
function budgetLeft(rec: AgentRecord): { budgetUsd?: number } {
  return rec.budgetUsd === null ? {} : { budgetUsd: Math.max(0, rec.budgetUsd - (rec.costUsd ?? 0)) };
}

/** A mode prompt is a page or two; the folder is the agent's (it may have left anything there). */
const MODE_PROMPT_MAX_BYTES = 1024 * 1024;

/** A mode agent's whole prompt, from its input's prompt.md, read as anything in its folder is. */
function savedModePrompt(inputDir: string): string {
  const path = join(inputDir, "prompt.md");
  const text = readGuardedText(path, { maxBytes: MODE_PROMPT_MAX_BYTES, root: dirname(inputDir), rootName: "the agent's folder" });
  if (text === null) throw new TroupeError("invalid_state", `${path} (the run's prompt, written at its spawn) is gone`);
  return text;
}

/**
 * A recorded agent's next session: its provider session resumed with a prompt (a resume, a
 * recovery), or its task run again afresh (a retry of a run that never got going); either way in
 * its worktree, made again from its branch when it was removed meanwhile.
 */
export class Relaunch {
  constructor(private readonly d: RelaunchDeps) {}

  async resume(rec: AgentRecord, prompt: string, onLaunch: AgentPatch): Promise<Agent> {
    const { d } = this;
    const provider = d.provider(rec.provider);
    if (!provider.buildResume) throw new TroupeError("invalid_state", `the ${provider.name} provider cannot resume a session`);
    if (!rec.providerSessionId && !provider.resumesWithoutSession) throw new TroupeError("invalid_state", `${rec.name} reported no session id to resume`);
    const clientEnv = d.envs.load(rec.id, rec.name);
    const setup = await this.restoreWorktree(rec);
    const session = rec.session + 1;
    // queued messages lead the prompt, delivered to this session in the step that launches it
    const mail = d.mail?.claim(rec.id, session) ?? null;
    try {
      const role = loadRole(d.envs.dir(rec.id));
      const built = provider.buildResume({
        prompt: mail ? `${mail.text}\n\n${prompt}` : prompt,
        cwd: rec.cwd,
        model: rec.model ?? undefined,
        sessionId: rec.providerSessionId ?? "",
        ...(provider.resumeReadsSessionAge && { sessionSeenAt: this.sessionSeenAt(rec) }),
        permissions: rec.permissions,
        ...d.rulesOf(rec),
        // a system prompt holds for the run it is given to; the session's history already holds a prompted role
        ...(provider.takesSystemPrompt && role && { instructions: role.instructions }),
        ...(role?.mcpServers && { mcpServers: role.mcpServers }),
        command: rec.command ?? undefined,
        env: clientEnv,
        ...budgetLeft(rec),
      });
      return await this.launch(rec, provider, built, clientEnv, session, onLaunch, setup);
    } catch (err) {
      mail?.release();
      throw err;
    }
  }

  /**
   * The provider session began no later than this: when its id was first in the agent's stored
   * output; else (that output dropped) the end of the agent's last run, which used it; else now.
   */
  private sessionSeenAt(rec: AgentRecord): number {
    const { store } = this.d;
    const seen = rec.providerSessionId ? store.chunks.firstStoredWith(rec.id, rec.providerSessionId) : null;
    return seen ?? store.sessions.get(rec.id, rec.session)?.endedAt ?? Date.now();
  }

  /** The run again from its task, a fresh provider session: for a run that never got going. */
  async respawn(rec: AgentRecord, onLaunch: AgentPatch): Promise<Agent> {
    const { d } = this;
    const provider = d.provider(rec.provider);
    const setup = await this.restoreWorktree(rec);
    const clientEnv = d.envs.load(rec.id, rec.name);
    const paths = agentPaths(d.ws.stateDir, rec.name, rec.worktree);
    // a mode agent's whole prompt is its input's prompt.md (written at spawn)
    const prompt = rec.mode
      ? savedModePrompt(paths.inputDir)
      : buildAgentPrompt({ id: rec.id, name: rec.name, prompt: rec.prompt ?? "", inputDir: paths.inputDir, troupe: d.troupe() });
    const role = loadRole(d.envs.dir(rec.id));
    const built = buildWithRole(provider, {
      prompt,
      cwd: rec.cwd,
      model: rec.model ?? undefined,
      permissions: rec.permissions,
      ...d.rulesOf(rec),
      command: rec.command ?? undefined,
      env: clientEnv,
      instructions: role?.instructions,
      mcpServers: role?.mcpServers,
      ...budgetLeft(rec),
    });
    return this.launch(rec, provider, built, clientEnv, rec.session + 1, onLaunch, setup);
  }

  /** Launches the built command as `session`: troupe's MCP server added, a new token for the agent. */
  private launch(rec: AgentRecord, provider: Provider, built: ProviderCommand, clientEnv: Record<string, string>, session: number, onLaunch: AgentPatch, setup: string | null): Promise<Agent> {
    const { d } = this;
    const { cmd, files } = withTroupeMcp(provider, built, d.troupe(), agentPaths(d.ws.stateDir, rec.name, rec.worktree).inputDir, rec.permissions);
    assertWithinArgLimit(cmd.argv, { ...clientEnv, ...cmd.env });
    writeMcpFiles(files, d.ws.stateDir);
    const token = newToken();
    d.store.agents.setTokenHash(rec.id, hashToken(token));
    return d.startSession(rec, session, cmd, token, onLaunch, clientEnv, setup);
  }

  /**
   * A worktree removed since (idle past `worktree.keepDays`, by hand) is made again from the
   * agent's branch, made ready as a new one is; returns the setup command it needs (or null).
   */
  async restoreWorktree(rec: AgentRecord): Promise<string | null> {
    const { d } = this;
    if (!rec.worktree || !rec.branch || existsSync(rec.worktree)) return null;
    const prep = worktreePrep(d.ws.root, d.ws.stateDir, d.log);
    // its ports went with its worktree: leased again first, as for a new one
    const range = portsConfig(d.ws.stateDir);
    if (range && !d.store.ports.of(rec.id).length) await leasePorts(d.store.ports, rec.id, range);
    await restoreWorktree(d.ws.root, rec.worktree, rec.branch);
    await copyIncludes(d.ws.root, rec.worktree, prep.include, d.log).catch((err) => d.log.warn(`copying included files into ${rec.worktree}`, err));
    d.log.info(`${rec.name}: recreated its worktree from ${rec.branch}`);
    return prep.setup;
  }
}
