import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { AGENT_STATUSES } from "../protocol/status.ts";
import { MCP_MAX_WAIT_SECONDS } from "../protocol/mcp.ts";
import type { McpContext } from "./context.ts";
import type { EndpointShapes } from "./shapes.ts";
import { agentView, guarded, json } from "./result.ts";
import { outcome, startWorker, waitForAgent } from "./workers.ts";

const timeoutSeconds = z.number().int().positive().max(MCP_MAX_WAIT_SECONDS).optional();

/** Agents: start, list, read, stop, and the supervisor's handoff / assign / wait_agent. */
export function registerAgentTools(server: McpServer, ctx: McpContext, { worker, agent: agentRef }: EndpointShapes): void {
  server.registerTool(
    "spawn_agent",
    {
      description: "Start an agent on a task, in its own git worktree; returns at once with the agent (you are recorded as its parent).",
      inputSchema: {
        ...worker,
        // a command runs as it is (its prompt, if any, in $TROUPE_PROMPT): the daemon asks for a prompt only where a CLI needs one
        prompt: z.string().min(1).optional().describe("the task (needed unless command is given)"),
      },
    },
    (args) => guarded(async () => json(agentView(await startWorker(ctx, args, null)))),
  );

  server.registerTool(
    "list_agents",
    {
      description: "List the workspace's agents (id, name, provider, status, parent, result or error).",
      inputSchema: { status: z.enum(AGENT_STATUSES).optional().describe("only agents with this status") },
    },
    ({ status }) => guarded(async () => json((await ctx.client.listAgents()).filter((a) => !status || a.status === status).map(agentView))),
  );

  server.registerTool(
    "get_agent",
    { description: "One agent: its status, result, error or questions.", inputSchema: { agent: agentRef } },
    ({ agent }) => guarded(async () => json(agentView(await ctx.client.agent(agent)))),
  );

  server.registerTool(
    "stop_agent",
    { description: "Stop an agent you started (or yourself): its processes get SIGTERM, then SIGKILL.", inputSchema: { agent: agentRef } },
    ({ agent }) => guarded(async () => json(agentView(await ctx.client.stop(agent)))),
  );

  server.registerTool(
    "handoff",
    {
      description:
        "Hand a task to a new worker agent and wait until it ends; returns its result (or its questions, or its error). " +
        "A worker still running after timeoutSeconds (default 600) is returned as a handle: call wait_agent to keep waiting.",
      inputSchema: { ...worker, message: z.string().min(1).describe("the task for the worker"), timeoutSeconds },
    },
    ({ message, timeoutSeconds: t, ...rest }, extra) =>
      guarded(async () => {
        const started = await startWorker(ctx, { ...rest, prompt: message }, "handoff");
        const ms = t === undefined ? ctx.defaultWaitMs : t * 1000;
        return outcome(await waitForAgent(ctx, started.id, ms, extra.signal), ms);
      }),
  );

  server.registerTool(
    "wait_agent",
    {
      description: "Wait until an agent ends its run (default up to 600 s); returns its result, questions or error, or that it still runs.",
      inputSchema: { agent: agentRef, timeoutSeconds },
    },
    ({ agent, timeoutSeconds: t }, extra) =>
      guarded(async () => {
        const ms = t === undefined ? ctx.defaultWaitMs : t * 1000;
        return outcome(await waitForAgent(ctx, agent, ms, extra.signal), ms);
      }),
  );

  server.registerTool(
    "assign",
    {
      description:
        "Start a worker agent on a task and return at once; the worker is told you assigned it and reports back with send_message to its supervisor (read it with wait_for_message or read_inbox).",
      inputSchema: { ...worker, message: z.string().min(1).describe("the task for the worker") },
    },
    ({ message, ...rest }) => guarded(async () => json(agentView(await startWorker(ctx, { ...rest, prompt: message }, "assign")))),
  );
}
