import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, type Sandbox, waitFor } from "./sandbox.ts";

export interface ToolReply {
  isError: boolean;
  text: string;
  /** Every text block, in order (a waited-for worker's second block is its JSON). */
  texts: string[];
}

/** The real MCP client of the SDK, talking to `dist/troupe mcp` over stdio, as an agent's CLI does. */
export class McpSession {
  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {}

  /** `env` adds to the sandbox's (an agent's identity, say). */
  static async open(sb: Sandbox, env: Record<string, string> = {}): Promise<McpSession> {
    const transport = new StdioClientTransport({ command: BIN, args: ["mcp"], env: { ...sb.env, ...env }, cwd: sb.dir, stderr: "pipe" });
    const client = new Client({ name: "troupe-test", version: "0" });
    await client.connect(transport);
    return new McpSession(client, transport);
  }

  async call(name: string, args: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<ToolReply> {
    const r = await this.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs });
    const texts = (r.content as { type: string; text?: string }[]).filter((c) => c.type === "text").map((c) => c.text ?? "");
    return { isError: r.isError === true, text: texts[0] ?? "", texts };
  }

  /** The reply's first block as JSON, failing loudly with the text when it is an error. */
  async json<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}): Promise<T> {
    const r = await this.call(name, args);
    if (r.isError) throw new Error(`${name} failed: ${r.text}`);
    return JSON.parse(r.text) as T;
  }

  async close(): Promise<void> {
    await this.client.close();
    await this.transport.close();
  }
}

export type AgentIdentity = Record<"TROUPE_AGENT_TOKEN" | "TROUPE_AGENT_ID" | "TROUPE_AGENT_NAME", string>;

/**
 * A running `--command` agent that hands its identity to the test (its session's token, id and
 * name, written to a file) and then waits until `release` is called: what its CLI would pass to
 * the `troupe mcp` it starts.
 */
export async function identityAgent(sb: Sandbox, name: string, spawnArgs: string[] = []): Promise<{ env: AgentIdentity; release(): Promise<unknown> }> {
  const file = join(sb.exchange, `.id-${name}`);
  const cmd = `printf '%s %s %s' "$TROUPE_AGENT_TOKEN" "$TROUPE_AGENT_ID" "$TROUPE_AGENT_NAME" > ${file}.tmp && mv ${file}.tmp ${file}; while [ ! -f ${file}.go ]; do sleep 0.05; done; troupe signal done --result released`;
  await sb.json(["spawn", "--no-worktree", "--name", name, "--command", cmd, ...spawnArgs, "--json"], {});
  const [token, id, agentName] = await waitFor(`${name}'s identity`, () => {
    try {
      return readFileSync(file, "utf8").split(" ");
    } catch {
      return undefined;
    }
  });
  return { env: { TROUPE_AGENT_TOKEN: token!, TROUPE_AGENT_ID: id!, TROUPE_AGENT_NAME: agentName! }, release: () => Bun.write(`${file}.go`, "") };
}
