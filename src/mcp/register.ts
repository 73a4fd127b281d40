import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { RECONNECT_MS, withReconnect } from "../client/reconnect.ts";
import type { McpContext } from "./context.ts";
import { guarded, json } from "./result.ts";
import { callArgs, toolEndpoint, toolInput } from "./tool-input.ts";
import type { Tool } from "./tool-row.ts";

/**
 * Registers each row of the tools' table: its input derived from its endpoint; a plain row calls
 * that endpoint through the client by its key, a composite one runs its body. Any failure (a
 * refusal by the daemon, a daemon gone) is one readable error result, never a crash of the server.
 */
export async function registerTools(server: McpServer, ctx: McpContext, rows: readonly Tool[]): Promise<void> {
  const inputs = await Promise.all(rows.map(toolInput));
  rows.forEach((row, i) => {
    const input = inputs[i]!;
    const e = toolEndpoint(row);
    // the client's method of the endpoint's key (one per row of the API table)
    const method = ctx.client[row.endpoint] as unknown as (...args: unknown[]) => Promise<unknown>;
    const call = (args: Record<string, unknown>) => method.apply(ctx.client, callArgs(e, input, args));
    // every tool says whether it only reads: a host left to guess may take an acting one for a read
    const annotations = { readOnlyHint: row.readOnly === true };
    server.registerTool(row.name, { description: row.description, inputSchema: input.shape, annotations }, (args: Record<string, unknown>, extra) =>
      guarded(async () => {
        if (row.run) return row.run(ctx, args, extra);
        const reply = row.reconnect ? await withReconnect(Date.now() + RECONNECT_MS, () => call(args)) : await call(args);
        return json(row.view ? row.view(reply, args) : reply);
      }),
    );
  });
}
