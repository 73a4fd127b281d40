import { z } from "zod";
import { AGENT_STATUSES } from "../protocol/status.ts";
import { MCP_MAX_WAIT_SECONDS } from "../protocol/mcp.ts";
import { agentView, json } from "./result.ts";
import { tool } from "./tool-row.ts";
import { outcome, startWorker, waitForAgent } from "./workers.ts";

const timeoutSeconds = z.number().int().positive().max(MCP_MAX_WAIT_SECONDS).optional();
const waitMs = (ms: number, t: number | undefined) => (t === undefined ? ms : t * 1000);

/** spawn_agent, handoff, assign: what a worker is started with (the spawn body's fields, described for the model). */
const WORKER = {
  profile: { field: "profile", describe: "an agent profile (troupe profile ls): its provider, model, permissions, tools and instructions; the other fields win over it" },
  provider: { field: "provider", describe: "claude, codex, gemini, ... (default: your own CLI, else claude)" },
  model: { field: "model", describe: "the provider's model" },
  command: { field: "command", describe: "a shell command to run as the agent instead of a CLI (generic provider; the prompt is in $TROUPE_PROMPT)" },
  name: { field: "name", describe: "a name (lowercase letters, digits, dashes; default: an unused adjective-animal)" },
  worktree: { field: "worktree", describe: "false: run in the workspace itself (default: its own git worktree)" },
  baseRef: { field: "baseRef", describe: "the git ref its worktree starts from (default: HEAD)" },
} as const;

/** An agent's `:ref`, as the tools have always named it. */
const AGENT = { agent: "ref" } as const;

/** Agents: start, list, read, stop, and the supervisor's handoff / assign / wait_agent. */
export const AGENT_TOOLS = [
  tool({
    name: "spawn_agent",
    endpoint: "spawn",
    description: "Start an agent on a task, in its own git worktree; returns at once with the agent (you are recorded as its parent).",
    input: WORKER,
    // a command runs as it is (its prompt, if any, in $TROUPE_PROMPT): the daemon asks for a prompt only where a CLI needs one
    own: { prompt: z.string().min(1).optional().describe("the task (needed unless command is given)") },
    run: async (ctx, args) => json(agentView(await startWorker(ctx, args, null))),
  }),
  tool({
    name: "list_agents",
    endpoint: "listAgents",
    description: "List the workspace's agents (id, name, provider, status, parent, result or error).",
    input: {},
    readOnly: true,
    own: { status: z.enum(AGENT_STATUSES).optional().describe("only agents with this status") },
    view: (agents, { status }) => agents.filter((a) => !status || a.status === status).map(agentView),
  }),
  tool({ name: "get_agent", endpoint: "agent", description: "One agent: its status, result, error or questions.", input: AGENT, readOnly: true, view: agentView }),
  tool({
    name: "stop_agent",
    endpoint: "stop",
    description: "Stop an agent you started (or yourself): its processes get SIGTERM, then SIGKILL.",
    input: AGENT,
    view: agentView,
  }),
  tool({
    name: "handoff",
    endpoint: "spawn",
    description:
      "Hand a task to a new worker agent and wait until it ends; returns its result (or its questions, or its error). " +
      "A worker still running after timeoutSeconds (default 600) is returned as a handle: call wait_agent to keep waiting.",
    input: WORKER,
    own: { message: z.string().min(1).describe("the task for the worker"), timeoutSeconds },
    run: async (ctx, { message, timeoutSeconds: t, ...rest }, extra) => {
      const started = await startWorker(ctx, { ...rest, prompt: message }, "handoff");
      const ms = waitMs(ctx.defaultWaitMs, t);
      return outcome(await waitForAgent(ctx, started.id, ms, extra.signal), ms);
    },
  }),
  tool({
    name: "wait_agent",
    endpoint: "waitAgent",
    description: "Wait until an agent ends its run (default up to 600 s); returns its result, questions or error, or that it still runs.",
    input: AGENT,
    readOnly: true,
    own: { timeoutSeconds },
    run: async (ctx, { agent, timeoutSeconds: t }, extra) => {
      const ms = waitMs(ctx.defaultWaitMs, t);
      return outcome(await waitForAgent(ctx, agent, ms, extra.signal), ms);
    },
  }),
  tool({
    name: "assign",
    endpoint: "spawn",
    description:
      "Start a worker agent on a task and return at once; the worker is told you assigned it and reports back with send_message to its supervisor (read it with wait_for_message or read_inbox).",
    input: WORKER,
    own: { message: z.string().min(1).describe("the task for the worker") },
    run: async (ctx, { message, ...rest }) => json(agentView(await startWorker(ctx, { ...rest, prompt: message }, "assign"))),
  }),
];
