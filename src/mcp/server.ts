import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { McpContext } from "./context.ts";
import { registerTools } from "./register.ts";
import { TOOLS } from "./tools.ts";

export type { McpContext };

/** troupe's tools as an MCP server: a thin adapter over the daemon's API, with the caller's identity. */
async function createMcpServer(ctx: McpContext): Promise<McpServer> {
  const server = new McpServer(
    { name: "troupe", version: ctx.version },
    { instructions: "troupe runs coding agents side by side, each in its own git worktree. Start workers (handoff waits for the result, assign does not), talk to agents and the person (messages, questions), and follow them." },
  );
  await registerTools(server, ctx, TOOLS);
  return server;
}

/** Serves MCP on stdin/stdout until the host closes stdin. Nothing else may write to stdout meanwhile. */
export async function serveStdio(ctx: McpContext): Promise<void> {
  const server = await createMcpServer(ctx);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
    process.stdin.once("end", () => void server.close().then(resolve, resolve));
  });
  await server.connect(new StdioServerTransport());
  await closed;
}
