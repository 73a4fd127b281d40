import { TroupeError, errorMessage } from "../../errors.ts";
import type { Agent } from "../../protocol/entities.ts";
import type { AgentRecord } from "../../store/index.ts";
import type { Provider } from "../../../providers/types.ts";
import { buildWithRole } from "../../../providers/role.ts";
import { which } from "../../runtime/process.ts";
import { createWorktree, troupeBranches, worktreePath, type Worktree } from "../../git/worktree.ts";
import { identityEnv } from "../../git/merge.ts";
import { buildAgentPrompt } from "../../prompts/agent.ts";
import { toAgent } from "../../store/agents.ts";
import { portsConfig, providerConfig } from "../../workspace-config.ts";
import { assertWithinArgLimit } from "../processes/arg-limit.ts";
import type { AgentDeps } from "../deps.ts";
import type { AgentEnvStore } from "../files/saved-env.ts";
import { writeInput, type SpawnWork } from "../files/input-folder.ts";
import { withTroupeMcp, writeMcpFiles } from "./mcp-config.ts";
import { modePrompt } from "./mode-prompt.ts";
import { uniqueName } from "./agent-names.ts";
import { agentPaths } from "../paths.ts";
import { configLayers, mergeLayers, type PolicyLayer } from "../permission-layers.ts";
import type { StartSession } from "./next-session.ts";
import { roleSandbox, saveRole, type SpawnRole } from "../files/spawn-role.ts";
import { copyIncludes, worktreePrep } from "./worktree-setup.ts";
import { leasePorts } from "./ports.ts";
import type { SpawnRequestSchema } from "../../protocol/api.ts";
import type { z } from "zod";
import { hashToken, newId, newToken } from "../tokens.ts";
import { SANDBOX_NOT_STARTED, type NetworkPolicy, type SandboxMode } from "../../protocol/sandbox.ts";
import { resolveSandbox, stricterMode, tighterNetwork } from "../../sandbox/policy.ts";
import { sandboxLayers } from "../../sandbox/layers.ts";
import { sandboxAvailable } from "../../sandbox/available.ts";

/** A spawn request as its schema leaves it (defaults applied). */
export type SpawnOptions = z.output<typeof SpawnRequestSchema>;

export interface SpawnerDeps extends AgentDeps {
  envs: AgentEnvStore;
  provider(name: string): Provider;
  startSession: StartSession;
  /** `failed`, with why (published). */
  failRun(id: string, error: string): Agent;
  troupe(): string;
}

/**
 * A new agent from a spawn request: its name, account, worktree, permission policy, prompt and
 * command, all checked before it is recorded (a refused spawn leaves nothing behind), then its
 * input folder and its first session.
 */
export class Spawner {
  /**
   * Names picked by spawns not yet recorded: a name is taken in the store only at the insert,
   * after awaits (branches, the worktree), so concurrent spawns (dispatch starts several) could
   * otherwise pick the same one and the second's `git worktree add -b` fail.
   */
  private readonly naming = new Set<string>();

  constructor(private readonly d: SpawnerDeps) {}

  /** See SpawnAgent.spawn (src/agents/use-cases/spawn.ts). */
  async spawn(req: SpawnOptions, parentId: string | null, work: SpawnWork | null, role: SpawnRole | null): Promise<Agent> {
    const claim: { name: string | null } = { name: null };
    try {
      return await this.spawnNow(req, parentId, work, role, claim);
    } finally {
      if (claim.name) this.naming.delete(claim.name);
    }
  }

  private async spawnNow(asked: SpawnOptions, parentId: string | null, work: SpawnWork | null, role: SpawnRole | null, claim: { name: string | null }): Promise<Agent> {
    const { d } = this;
    const req = asked.gitIdentity ? { ...asked, env: { ...identityEnv(asked.gitIdentity), ...asked.env } } : asked;
    if (parentId !== null) this.refusePlanningParent(parentId);
    const provider = d.provider(req.provider ?? "generic");
    if (provider.binary === null && !req.command?.trim()) throw new TroupeError("bad_request", `the ${provider.name} provider needs a command`);
    // a run another daemon placed here is a mode run's prompt and input, as a plain agent of this one
    const run: SpawnWork | null = work ?? req.hosted ?? null;
    if (provider.binary !== null && !run && !req.prompt?.trim()) throw new TroupeError("bad_request", "a prompt is needed");
    if (provider.binary !== null && !which(provider.binary, req.env.PATH ?? process.env.PATH ?? "")) {
      throw new TroupeError("bad_request", `${provider.binary} is not installed: ${provider.install}`);
    }
    const config = providerConfig(d.ws.stateDir, provider.name);
    // its sandbox, settled before anything exists: strict without one, or a worker looser than its parent, starts nothing
    const sandbox = this.sandboxOf(req, parentId, role);
    const { agents } = d.store;
    // a removed agent's branch stays, so its name stays taken for worktrees
    const branches = req.worktree ? await troupeBranches(d.ws.root) : new Set<string>();
    const taken = (n: string) => this.naming.has(n) || agents.nameTaken(n) || branches.has(n);
    if (req.name && taken(req.name)) throw new TroupeError("conflict", `the name '${req.name}' is taken (an agent or a troupe/${req.name} branch)`);
    const name = req.name ?? uniqueName(taken);
    this.naming.add(name);
    claim.name = name;
    // chosen before anything is created: a spent or unknown account refuses the spawn
    const accounts = d.accounts ?? null;
    if (req.account && !accounts) throw new TroupeError("bad_request", "accounts are not available in this daemon");
    const accountId = accounts ? (parentId === null ? accounts.choose(provider.name, req.account ?? null, req.expectedMs ?? null) : this.inheritedAccount(parentId, provider.name, req.account)) : null;
    const id = newId("ag");
    const token = newToken();
    const prompt = req.prompt ?? null;
    const model = req.model ?? config.model ?? null;
    // the agent's own layers (spawn flags, its profile, its initiative) are kept with it; the configs' are read at each use
    const own = this.ownLayers(req, role, work?.initiativeId ?? null);
    const policy = mergeLayers([...own, ...configLayers(d.ws.stateDir, provider.name)]);
    // modes do not choose permissions, but a mode agent must be able to write its output files
    const permissions = run && policy.mode === "plan" ? "edits" : policy.mode;
    // refused before anything exists when the config's setup command is not trusted, or a file it needs cannot be read
    const prep = req.worktree ? worktreePrep(d.ws.root, d.ws.stateDir, d.log) : null;
    const setup = prep?.setup ?? null;
    // the worktree's place is known before it exists: the command is built (and may be refused) first
    const wtPath = req.worktree ? worktreePath(d.ws.root, name) : null;
    const cwd = wtPath ?? d.ws.root;
    const paths = agentPaths(d.ws.stateDir, name, wtPath);
    const troupe = d.troupe();
    const fullPrompt = run
      ? modePrompt({ id, name, inputDir: paths.inputDir, troupe, provider, work: run }).prompt
      : buildAgentPrompt({ id, name, prompt: prompt ?? "", inputDir: paths.inputDir, troupe });
    // built before anything exists (no branch, no worktree, no record): a provider that refuses
    // the input (--permissions ask where it cannot ask) leaves nothing behind, its name free
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
    const { cmd, files: mcpFiles } = withTroupeMcp(provider, built, troupe, paths.inputDir, permissions);
    assertWithinArgLimit(cmd.argv, { ...req.env, ...cmd.env });
    // the worktree's ports, taken before it exists: a range with none left refuses the spawn first
    const range = req.worktree ? portsConfig(d.ws.stateDir) : null;
    if (range) await leasePorts(d.store.ports, id, range);
    let rec: AgentRecord;
    let wt: Worktree | null = null;
    try {
      wt = req.worktree ? await createWorktree(d.ws.root, name, req.baseRef) : null;
      if (wt) {
        d.store.branches.record(wt.branch, id);
        const at = wt.path;
        await copyIncludes(d.ws.root, at, prep?.include ?? [], d.log).catch((err) => d.log.warn(`copying included files into ${at}`, err));
      }
      rec = agents.insert({
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
    } catch (err) {
      if (range) d.store.ports.release(id);
      throw err;
    }
    const withSandbox = agents.update(rec.id, { sandbox: { sandboxed: false, mode: sandbox.mode, network: sandbox.network, note: SANDBOX_NOT_STARTED } });
    const ownRules = mergeLayers(own);
    d.store.permissions.addRules(rec.id, "allow", ownRules.allow, "spawn");
    d.store.permissions.addRules(rec.id, "deny", ownRules.deny, "spawn");
    d.bus.publish({ type: "agent:created", agent: toAgent(withSandbox) });
    try {
      d.envs.save(rec.id, req.env);
      if (role) saveRole(d.envs.dir(rec.id), role);
      this.writeInput(rec, paths.inputDir, wt?.baseCommit ?? null, run && { ...run, prompt: fullPrompt });
      writeMcpFiles(mcpFiles, d.ws.stateDir);
    } catch (err) {
      d.failRun(rec.id, `could not write the agent's input: ${errorMessage(err)}`);
      throw err;
    }
    return d.startSession(withSandbox, 1, cmd, token, {}, req.env, setup);
  }

  /**
   * The sandbox a spawn asks for, over the configs (src/sandbox/layers.ts). An agent's worker runs
   * at least as tightly as the agent: asking for less is refused, since a sandboxed agent must not
   * start its way out (a worker without a worktree gets the person's checkout read-only: plan.ts).
   */
  private sandboxOf(req: SpawnOptions, parentId: string | null, role: SpawnRole | null): { mode: SandboxMode; network: NetworkPolicy } {
    const settings = resolveSandbox(sandboxLayers(this.d.ws.stateDir, { sandbox: req.sandbox, network: req.network }, roleSandbox(role)));
    let { mode, network } = settings;
    const parent = parentId ? this.d.store.agents.get(parentId)?.sandbox : null;
    if (parent?.sandboxed) {
      const looser = (req.sandbox && stricterMode(req.sandbox, parent.mode) !== req.sandbox) || (req.network && tighterNetwork(req.network, parent.network) !== req.network);
      if (looser) throw new TroupeError("forbidden", `an agent's worker runs at least as sandboxed as the agent (sandbox ${parent.mode}, network ${parent.network})`);
      mode = "strict"; // sandboxed like its parent, or not at all
      network = tighterNetwork(network, parent.network);
    }
    if (mode === "strict") {
      const available = sandboxAvailable(req.env.PATH ?? process.env.PATH);
      if (!available.ok) throw new TroupeError("sandbox_unavailable", `sandbox mode strict: ${available.why}; nothing was started`);
    }
    return { mode, network };
  }

  /**
   * A plan-mode agent proposes and changes nothing, so it starts no agent either (handoff, assign,
   * spawn_agent, `troupe spawn`): a worker would run in a mode of its own and do the work. Said in
   * one line, for every CLI, the same whether or not the CLI refused the tool itself first.
   */
  private refusePlanningParent(parentId: string): void {
    const parent = this.d.store.agents.get(parentId);
    if (parent?.permissions === "plan") throw new TroupeError("forbidden", `${parent.name} runs in plan mode and may not start agents: put the work in its plan`);
  }

  /**
   * An agent's worker runs on the agent's own account (of the same provider), or on none: never
   * one the agent names (the API refuses that first), never the least recently used one (spawning
   * workers would otherwise walk through every account of the person's).
   */
  private inheritedAccount(parentId: string, provider: string, named: string | undefined): string | null {
    if (named !== undefined) throw new TroupeError("forbidden", "an agent's workers run on its own account; only the person may name one");
    const parent = this.d.store.agents.get(parentId);
    return parent && parent.provider === provider ? parent.accountId : null;
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
    writeInput(dir, work?.prompt ?? rec.prompt ?? rec.command ?? "", manifest, work?.files, this.d.ws.stateDir);
  }
}
