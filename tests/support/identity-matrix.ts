import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, Conversation } from "../../src/protocol/entities.ts";
import type { PhaseTree } from "../../src/protocol/work.ts";
import type { Message } from "../../src/protocol/message.ts";
import { isLive } from "../../src/protocol/status.ts";
import { ENDPOINTS, ROWS, type EndpointName } from "../../src/protocol/api/index.ts";
import { GIT_IDENTITY, waitFor, type Sandbox } from "./sandbox.ts";
import { agentSocketFor } from "../../src/workspace.ts";

/**
 * Every route of the API tried by every kind of caller against a live daemon, as HTTP statuses.
 * The callers are named by how they stand to the target agent ("self"): the person (no token),
 * the agent itself, the agent that spawned it, that agent's parent, an agent it spawned, an
 * agent of another family, and a token nobody was given. Used by tests/integration/identity.test.ts
 * (against its hand-written expectations) and scripts/stress/identity-matrix.ts (prints it).
 */
export const CALLERS = ["person", "self", "parent", "grandparent", "child", "unrelated", "forged", "sandboxed"] as const;
export type CallerName = (typeof CALLERS)[number];
export type Matrix = Record<string, Record<CallerName, number>>;

const FORGED = "forged-token-nobody-was-given";
/**
 * The "sandboxed" caller: no token, on the agents' socket (the one a sandbox binds in, src/sandbox/):
 * what an agent that drops its header to pass for the person sends.
 */
const NO_TOKEN_AGENTS_SOCKET = "\0no token, on the agents' socket";

/** Where a caller's request goes, and the header it sends. */
function route(sb: Sandbox, token: string | null): { unix: string; headers: Record<string, string> } {
  if (token === NO_TOKEN_AGENTS_SOCKET) return { unix: agentSocketFor(sb.socket), headers: {} };
  return { unix: sb.socket, headers: token ? { authorization: `Bearer ${token}` } : {} };
}

interface Family {
  /** The agent the route acts on. */
  target: Agent;
  tokens: Record<CallerName, string | null>;
}

type Fresh = "live" | "finished" | null;

interface RouteCase {
  /** The row of the API table it calls; its route is read from there. */
  endpoint: EndpointName;
  /** A second case of the same route ("with env"). */
  variant?: string;
  /** A target of its own for each caller (the call changes it), live or finished; null: the shared one. */
  fresh: Fresh;
  call(m: MatrixRun, f: Family, token: string | null): Promise<number>;
}

/** One run: the shared family, and fresh ones per cell for the routes that change their target. */
export class MatrixRun {
  private readonly tokenDir: string;
  private n = 0;
  private shared!: { grandparent: Agent; parent: Agent; unrelated: Agent; tokens: Map<string, string> };
  private sharedFamily!: Family;

  constructor(private readonly sb: Sandbox) {
    this.tokenDir = join(sb.dir, ".matrix-tokens");
    mkdirSync(this.tokenDir, { recursive: true });
  }

  async api(token: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
    const to = route(this.sb, token);
    const headers: Record<string, string> = { "content-type": "application/json", ...to.headers };
    const res = await fetch(`http://troupe${path}`, { unix: to.unix, method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as unknown) : null };
  }

  /** A repository profile for the profile routes to read. */
  writeProfile(): void {
    mkdirSync(join(this.sb.dir, ".troupe", "profiles"), { recursive: true });
    writeFileSync(join(this.sb.dir, ".troupe", "profiles", "matrix.md"), "---\nprovider: generic\n---\nmatrix\n");
  }

  /** Spawns as `token` (null: the person) an agent that writes its token where the run can read it. */
  async spawnAs(token: string | null, then: "live" | "finished"): Promise<{ agent: Agent; token: string }> {
    const name = `m${++this.n}`;
    const file = join(this.tokenDir, name);
    const command = `printf %s "$TROUPE_AGENT_TOKEN" > ${file}.tmp && mv ${file}.tmp ${file}; ${then === "live" ? "exec sleep 600" : "exit 0"}`;
    // unsandboxed (the person's first one, and so its descendants): each writes its token into the checkout
    const r = await this.api(token, "POST", "/v1/agents", { provider: "generic", command, name, worktree: false, sandbox: "off", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    if (r.status !== 201) throw new Error(`spawn ${name} as ${token ? "an agent" : "the person"}: ${r.status} ${JSON.stringify(r.json)}`);
    const agentToken = await waitFor(`${name}'s token`, () => {
      try {
        return readFileSync(file, "utf8") || undefined;
      } catch {
        return undefined;
      }
    });
    if (then === "finished") await this.until(name, (a) => !isLive(a.status));
    return { agent: (r.json as { agent: Agent }).agent, token: agentToken };
  }

  async until(ref: string, ok: (a: Agent) => boolean): Promise<Agent> {
    return waitFor(`${ref} to settle`, async () => {
      const a = ((await this.api(null, "GET", `/v1/agents/${ref}`)).json as { agent: Agent }).agent;
      return ok(a) ? a : undefined;
    });
  }

  async setup(): Promise<void> {
    const grandparent = await this.spawnAs(null, "live");
    const parent = await this.spawnAs(grandparent.token, "live");
    const unrelated = await this.spawnAs(null, "live");
    this.shared = { grandparent: grandparent.agent, parent: parent.agent, unrelated: unrelated.agent, tokens: new Map([["grandparent", grandparent.token], ["parent", parent.token], ["unrelated", unrelated.token]]) };
    this.sharedFamily = await this.family("live");
    await this.setupWork();
  }

  /**
   * Initiative `matrix` with phases a plan run (as the person) proposed: `dt` approved, with
   * pending tasks (detail), `ap`, `rj`, `ed` proposed for the person's approve, reject and edit;
   * and initiative `arch` to archive.
   */
  private async setupWork(): Promise<void> {
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
    const created = async (name: string) => {
      const r = await this.api(null, "POST", "/v1/initiatives", { name, goal: "matrix" });
      if (r.status !== 201) throw new Error(`initiative ${name}: ${r.status} ${JSON.stringify(r.json)}`);
    };
    await created("matrix");
    await created("arch");
    const files = (dir: string, slugs: string[]) =>
      `mkdir -p .troupe/output/${dir} && ${slugs.map((x) => `printf -- '---\\ntitle: ${x}\\n---\\n${x}\\n' > .troupe/output/${dir}/${x}.md`).join(" && ")} && troupe signal done`;
    const run = async (path: string, command: string, ready: () => Promise<boolean>) => {
      const r = await this.api(null, "POST", path, { command, env });
      if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.json)}`);
      await waitFor(`${path} imported`, ready);
    };
    const tree = async () => ((await this.api(null, "GET", "/v1/initiatives/matrix/tree")).json as { tree: PhaseTree }).tree;
    await run("/v1/initiatives/matrix/plan", files("phases", ["dt", "ap", "rj", "ed"]), async () => (await tree()).phases.length === 4);
    const approved = await this.api(null, "POST", "/v1/approve", { ids: ["matrix/dt"] });
    if (approved.status !== 200) throw new Error(`approve matrix/dt: ${approved.status} ${JSON.stringify(approved.json)}`);
    await run("/v1/phases/matrix%2Fdt/detail", files("tasks", ["tk"]), async () => (await tree()).phases.some((p) => p.tasks.length === 1));
  }

  /** A new target spawned by the shared parent, and a child it spawns. */
  async family(then: "live" | "finished"): Promise<Family> {
    const target = await this.spawnAs(this.shared.tokens.get("parent")!, then);
    const child = await this.spawnAs(target.token, "live");
    const t = this.shared.tokens;
    return {
      target: target.agent,
      tokens: { person: null, self: target.token, parent: t.get("parent")!, grandparent: t.get("grandparent")!, child: child.token, unrelated: t.get("unrelated")!, forged: FORGED, sandboxed: NO_TOKEN_AGENTS_SOCKET },
    };
  }

  /** The statuses of every route for every caller; the person goes last (it alone stops the daemon). */
  async run(onCell?: (route: string, caller: CallerName, status: number) => void): Promise<Matrix> {
    if (UNCOVERED.length) throw new Error(`the identity matrix has no case for ${UNCOVERED.join(", ")} (tests/support/identity-matrix.ts)`);
    await this.setup();
    const out: Matrix = {};
    const order: CallerName[] = [...CALLERS.filter((c) => c !== "person"), "person"];
    for (const c of CASES) {
      const row = {} as Record<CallerName, number>;
      for (const caller of order) {
        // a refused token is refused before anything: it needs no target of its own
        const f = c.fresh && caller !== "forged" && caller !== "sandboxed" ? await this.family(c.fresh) : this.sharedFamily;
        row[caller] = await c.call(this, f, f.tokens[caller]);
        onCell?.(routeOf(c), caller, row[caller]);
      }
      out[routeOf(c)] = row;
    }
    return out;
  }

  private accountName: string | null = null;

  /** An account of the person's (added once per run) for the spawn rows to name. */
  async account(): Promise<string> {
    if (this.accountName) return this.accountName;
    const r = await this.api(null, "POST", "/v1/accounts", { provider: "generic", name: "matrix-acct", env: { MATRIX_ACCOUNT: "1" } });
    if (r.status !== 201) throw new Error(`add account: ${r.status} ${JSON.stringify(r.json)}`);
    return (this.accountName = "matrix-acct");
  }

  /** A conversation the person asks the target. */
  async askTarget(f: Family): Promise<Conversation> {
    const r = await this.api(null, "POST", "/v1/conversations", { question: "ready?", to: f.target.name });
    if (r.status !== 201) throw new Error(`ask ${f.target.name}: ${r.status} ${JSON.stringify(r.json)}`);
    return (r.json as { conversation: Conversation }).conversation;
  }

  /** A permission request the target files for a tool call of its own (a new one per call): pending. */
  async permissionOf(f: Family): Promise<{ id: string }> {
    const r = await this.api(f.tokens.self, "POST", "/v1/permissions", { toolName: "Bash", input: { command: "matrix" }, toolUseId: `toolu_matrix_${++this.n}` });
    if (r.status !== 200) throw new Error(`file a permission request as ${f.target.name}: ${r.status} ${JSON.stringify(r.json)}`);
    return (r.json as { request: { id: string } }).request;
  }

  /** A message to the person, for a read mark. */
  async messageToUser(): Promise<Message> {
    const r = await this.api(null, "POST", "/v1/messages", { to: "user", text: "for the person" });
    if (r.status !== 201) throw new Error(`send to the person: ${r.status} ${JSON.stringify(r.json)}`);
    return (r.json as { messages: Message[] }).messages[0]!;
  }

  /** Opens the event stream and closes it as soon as the status is known. */
  async eventsStatus(token: string | null): Promise<number> {
    const abort = new AbortController();
    const to = route(this.sb, token);
    const res = await fetch("http://troupe/v1/events?output=none", { unix: to.unix, headers: to.headers, signal: abort.signal });
    abort.abort();
    return res.status;
  }
}

const status = (p: Promise<{ status: number }>) => p.then((r) => r.status);
const ref = (f: Family) => encodeURIComponent(f.target.name);

const CASES: RouteCase[] = [
  { endpoint: "health", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/health")) },
  { endpoint: "listAgents", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/agents")) },
  { endpoint: "agent", fresh: null, call: (m, f, t) => status(m.api(t, "GET", `/v1/agents/${ref(f)}`)) },
  { endpoint: "output", fresh: null, call: (m, f, t) => status(m.api(t, "GET", `/v1/agents/${ref(f)}/output`)) },
  { endpoint: "agentDiff", fresh: null, call: (m, f, t) => status(m.api(t, "GET", `/v1/agents/${ref(f)}/diff`)) },
  { endpoint: "waitAgent", fresh: null, call: (m, f, t) => status(m.api(t, "GET", `/v1/agents/${ref(f)}/wait`)) },
  {
    endpoint: "spawn",
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", "/v1/agents", { provider: "generic", command: "exit 0", worktree: false })),
  },
  // an account is the person's to name: an agent gets the same refusal for one that exists and one that does not
  {
    endpoint: "spawn", variant: "with account",
    fresh: null,
    call: async (m, _f, t) => status(m.api(t, "POST", "/v1/agents", { provider: "generic", command: "exit 0", worktree: false, account: await m.account() })),
  },
  {
    endpoint: "spawn", variant: "with unknown account",
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", "/v1/agents", { provider: "generic", command: "exit 0", worktree: false, account: "no-such-account" })),
  },
  { endpoint: "stop", fresh: "live", call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/stop`, {})) },
  {
    endpoint: "resume",
    fresh: "finished",
    call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/resume`, { message: "go on" })),
  },
  // the shared target runs: the person passes and is told to stop it first (409), everyone else is
  // refused first (tests/integration/attach.test.ts takes the person's attach through)
  { endpoint: "attach", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/attach`, {})) },
  { endpoint: "attachStarted", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/attach/pid`, { session: 1, pid: process.pid })) },
  { endpoint: "detach", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/detach`, { session: 1 })) },
  {
    endpoint: "resume", variant: "with env",
    fresh: "finished",
    call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/resume`, { message: "go on", env: { EVIL: "1", PATH: process.env.PATH ?? "/usr/bin:/bin" } })),
  },
  { endpoint: "remove", fresh: "finished", call: (m, f, t) => status(m.api(t, "DELETE", `/v1/agents/${ref(f)}`)) },
  { endpoint: "signal", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/signal", { status: "done", result: "matrix" })) },
  { endpoint: "ask", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/conversations", { question: "anyone?", user: true })) },
  { endpoint: "conversations", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/conversations")) },
  {
    endpoint: "conversation",
    fresh: null,
    call: async (m, f, t) => status(m.api(t, "GET", `/v1/conversations/${(await m.askTarget(f)).id}?wait=0`)),
  },
  {
    endpoint: "answer",
    fresh: null,
    call: async (m, f, t) => status(m.api(t, "POST", `/v1/conversations/${(await m.askTarget(f)).id}/answer`, { answer: "yes" })),
  },
  { endpoint: "listen", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/listen?wait=0")) },
  { endpoint: "send", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/messages", { to: "user", text: "from the matrix" })) },
  { endpoint: "inbox", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/inbox?wait=0")) },
  { endpoint: "markRead", fresh: null, call: async (m, _f, t) => status(m.api(t, "POST", `/v1/messages/${(await m.messageToUser()).id}/read`, {})) },
  { endpoint: "messages", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/messages?to=user&unread")) },
  // the person's review: the target's folder has no changes, so a comment and a send pass the policy and are refused by the diff (400)
  { endpoint: "review", fresh: null, call: (m, f, t) => status(m.api(t, "GET", `/v1/agents/${ref(f)}/review`)) },
  { endpoint: "addReviewComment", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/review/comments`, { file: "README.md", line: 1, text: "x" })) },
  { endpoint: "addReviewComments", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/review/comments/batch`, { comments: [{ file: "README.md", line: 1, text: "x" }] })) },
  { endpoint: "editReviewComment", fresh: null, call: (m, _f, t) => status(m.api(t, "PATCH", "/v1/review-comments/rc_999", { text: "y" })) },
  { endpoint: "deleteReviewComment", fresh: null, call: (m, _f, t) => status(m.api(t, "DELETE", "/v1/review-comments/rc_999")) },
  { endpoint: "sendReview", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/review/send`, {})) },
  // pushes and pull requests speak for the person: no agent may; the sandbox's repository has no remote (409)
  { endpoint: "push", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/push`, {})) },
  { endpoint: "pullRequest", fresh: null, call: (m, f, t) => status(m.api(t, "POST", `/v1/agents/${ref(f)}/pr`, {})) },
  { endpoint: "pushInitiative", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives/matrix/push", {})) },
  { endpoint: "initiativePullRequest", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives/matrix/pr", {})) },
  { endpoint: "events", fresh: null, call: (m, _f, t) => m.eventsStatus(t) },
  { endpoint: "gc", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/gc?dry-run", {})) },
  // the user's accounts (the sandbox's own $XDG_STATE_HOME): the person's alone, reading included
  { endpoint: "accounts", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/accounts")) },
  { endpoint: "addAccount", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/accounts", { provider: "generic", env: { MATRIX: "1" } })) },
  {
    endpoint: "removeAccount",
    fresh: null,
    call: async (m, _f, t) => {
      const made = (await m.api(null, "POST", "/v1/accounts", { provider: "generic", env: { MATRIX: "1" } })).json as { account: { id: string } };
      return status(m.api(t, "DELETE", `/v1/accounts/${made.account.id}`));
    },
  },
  {
    endpoint: "resetAccount",
    fresh: null,
    call: async (m, _f, t) => {
      const made = (await m.api(null, "POST", "/v1/accounts", { provider: "generic", env: { MATRIX: "1" } })).json as { account: { id: string } };
      return status(m.api(t, "POST", `/v1/accounts/${made.account.id}/reset`, {}));
    },
  },
  { endpoint: "host", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/host")) },
  { endpoint: "hosts", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/hosts")) },
  // permission requests: each agent files its own tool calls; only the person decides, never an agent (the asker included)
  {
    endpoint: "filePermission",
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", "/v1/permissions", { toolName: "Bash", input: { command: "matrix" }, toolUseId: `toolu_${Math.random()}` })),
  },
  { endpoint: "permissions", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/permissions?status=pending")) },
  { endpoint: "permission", fresh: null, call: async (m, f, t) => status(m.api(t, "GET", `/v1/permissions/${(await m.permissionOf(f)).id}`)) },
  { endpoint: "waitPermission", fresh: null, call: async (m, f, t) => status(m.api(t, "GET", `/v1/permissions/${(await m.permissionOf(f)).id}/wait?timeout=0`)) },
  {
    endpoint: "decidePermission",
    fresh: null,
    call: async (m, f, t) => status(m.api(t, "POST", `/v1/permissions/${(await m.permissionOf(f)).id}/decide`, { behavior: "allow" })),
  },
  // the work model (MatrixRun.setupWork): the person decides, anyone reads
  { endpoint: "initiatives", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives")) },
  { endpoint: "createInitiative", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives", { name: "by matrix", goal: "g" })) },
  { endpoint: "initiative", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives/matrix")) },
  { endpoint: "phaseTree", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives/matrix/tree")) },
  { endpoint: "initiativeWork", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives/matrix/work")) },
  { endpoint: "initiativeDiff", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives/matrix/diff")) },
  { endpoint: "decisions", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/initiatives/matrix/decisions")) },
  { endpoint: "modePrompt", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/prompts/plan?ref=matrix")) },
  { endpoint: "workItem", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/work/matrix%2Fap")) },
  { endpoint: "approve", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/approve", { ids: ["matrix/ap"] })) },
  { endpoint: "reject", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/work/matrix%2Frj/reject", { reason: "no" })) },
  { endpoint: "edit", fresh: null, call: (m, _f, t) => status(m.api(t, "PATCH", "/v1/work/matrix%2Fed", { title: "edited" })) },
  { endpoint: "pin", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/work/matrix%2Ftk/pin", { host: "local" })) },
  // no task can have failed before dispatch: the person passes the policy and is told the task is pending
  { endpoint: "retry", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/tasks/matrix%2Ftk/retry", {})) },
  // on `arch` (no phases: nothing starts), before it is archived
  {
    endpoint: "dispatch",
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives/arch/dispatch", { command: "exit 0", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...GIT_IDENTITY } })),
  },
  { endpoint: "stopDispatch", fresh: null, call: (m, _f, t) => status(m.api(t, "DELETE", "/v1/initiatives/arch/dispatch")) },
  { endpoint: "setInitiativeBudget", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives/arch/budget", { budgetUsd: 5 })) },
  { endpoint: "archiveInitiative", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/initiatives/arch/archive", {})) },
  ...(["discuss", "plan", "refine"] as const).map((mode): RouteCase => ({
    endpoint: mode,
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", `/v1/initiatives/matrix/${mode}`, { command: "exit 0", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })),
  })),
  {
    endpoint: "detail",
    fresh: null,
    call: (m, _f, t) => status(m.api(t, "POST", "/v1/phases/matrix%2Fdt/detail", { command: "exit 0", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } })),
  },
  { endpoint: "profiles", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/profiles")) },
  { endpoint: "profile", fresh: null, call: (m, _f, t) => (m.writeProfile(), status(m.api(t, "GET", "/v1/profiles/matrix"))) },
  { endpoint: "flows", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/flows")) },
  // the person adds the flow the next rows act on; an agent is refused before anything is added
  { endpoint: "addFlow", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/flows", { name: "matrix", cron: "@yearly", provider: "generic", prompt: "x" })) },
  { endpoint: "flow", fresh: null, call: (m, _f, t) => status(m.api(t, "GET", "/v1/flows/matrix")) },
  { endpoint: "disableFlow", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/flows/matrix/disable", {})) },
  { endpoint: "enableFlow", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/flows/matrix/enable", {})) },
  // the generic provider without a command: the run fails (its outcome says why), nothing starts
  { endpoint: "runFlow", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/flows/matrix/run", {})) },
  { endpoint: "removeFlow", fresh: null, call: (m, _f, t) => status(m.api(t, "DELETE", "/v1/flows/matrix")) },
  // last: the person's call stops the daemon
  { endpoint: "stopDaemon", fresh: null, call: (m, _f, t) => status(m.api(t, "POST", "/v1/daemon/stop", {})) },
];

/** `METHOD /path` as the table writes it, and the case's variant. */
function routeOf(c: RouteCase): string {
  const e = ENDPOINTS[c.endpoint];
  return `${e.method} ${e.path}${c.variant ? ` ${c.variant}` : ""}`;
}

export const ROUTES = CASES.map(routeOf);

/** The endpoints of the API table no case calls: none may escape the matrix. */
export const UNCOVERED = ROWS.map(([name]) => name).filter((name) => !CASES.some((c) => c.endpoint === name));

/** The route × caller table of docs/security.md, as statuses (the rows under its marker comment). */
export function docsMatrix(markdown: string): Matrix {
  const lines = markdown.split("\n");
  const start = lines.findIndex((l) => l.includes("<!-- identity-matrix"));
  if (start < 0) throw new Error("docs/security.md has no identity-matrix marker");
  const out: Matrix = {};
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith("|")) {
      if (Object.keys(out).length) break;
      continue;
    }
    const cells = line.split("|").slice(1, -1).map((c) => c.trim());
    const m = /^`(.+)`$/.exec(cells[0]!);
    if (!m) continue; // the header and its rule
    const row = {} as Record<CallerName, number>;
    CALLERS.forEach((c, i) => (row[c] = Number(/\d{3}/.exec(cells[i + 1]!)?.[0])));
    out[m[1]!] = row;
  }
  return out;
}

/** The matrix as a fixed-width table, one row per route. */
export function formatMatrix(mx: Matrix, mark?: (route: string, caller: CallerName) => boolean): string {
  const width = Math.max(...Object.keys(mx).map((r) => r.length));
  const head = `${"route".padEnd(width)}  ${CALLERS.map((c) => c.padStart(13)).join("")}`;
  const rows = Object.entries(mx).map(([route, row]) => `${route.padEnd(width)}  ${CALLERS.map((c) => `${row[c]}${mark?.(route, c) ? "!" : " "}`.padStart(13)).join("")}`);
  return [head, ...rows].join("\n");
}
