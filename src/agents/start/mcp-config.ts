import { writeGuarded } from "../../guarded-fs.ts";
import type { McpServerSpec, PermissionMode, Provider, ProviderCommand } from "../../../providers/types.ts";
import { MCP_AGENT_TOOL_TIMEOUT_MS } from "../../protocol/mcp.ts";

/** What `troupe mcp` needs from the session's environment: who the agent is and where its daemon listens. */
const IDENTITY_VARS = ["TROUPE_AGENT_TOKEN", "TROUPE_AGENT_ID", "TROUPE_AGENT_NAME", "TROUPE_SOCKET", "TROUPE_WORKSPACE"];

/**
 * The provider's command with troupe's MCP server configured (its tools are native to the agent),
 * and the config files that go with it; unchanged for a CLI with no MCP support. Pure: the files
 * are written by `writeMcpFiles` once the agent is recorded.
 */
export function withTroupeMcp(provider: Provider, cmd: ProviderCommand, troupe: string, inputDir: string, permissions: PermissionMode): { cmd: ProviderCommand; files: Record<string, string> } {
  if (!provider.mcp) return { cmd, files: {} };
  const spec: McpServerSpec = { command: troupe, args: ["mcp"], envNames: IDENTITY_VARS, toolTimeoutMs: MCP_AGENT_TOOL_TIMEOUT_MS, inputDir, permissions };
  const inj = provider.mcp(spec);
  const [exe, ...rest] = cmd.argv;
  const env = inj.env || cmd.env ? { ...cmd.env, ...inj.env } : undefined;
  return { cmd: { ...cmd, argv: [exe!, ...inj.args, ...rest], ...(env && { env }) }, files: inj.files ?? {} };
}

/** Writes the files in the agent's input folder, never through a link below `trusted` (the workspace's `.troupe/`). */
export function writeMcpFiles(files: Record<string, string>, trusted: string): void {
  for (const [path, content] of Object.entries(files)) writeGuarded(path, content, trusted);
}
