import { writeGuarded } from "../../guarded-fs.ts";
import type { McpServerSpec, PermissionMode, Provider, ProviderCommand } from "../../../providers/types.ts";
import { MCP_AGENT_TOOL_TIMEOUT_MS, MCP_SERVER_ENV } from "../../protocol/mcp.ts";


/**
 * The provider's command with troupe's MCP server configured (its tools are native to the agent),
 * and the config files that go with it; unchanged for a CLI with no MCP support. Pure: the files
 * are written by `writeMcpFiles` once the agent is recorded.
 */
export function withTroupeMcp(provider: Provider, cmd: ProviderCommand, troupe: string, inputDir: string, permissions: PermissionMode): { cmd: ProviderCommand; files: Record<string, string> } {
  if (!provider.mcp) return { cmd: cmd.acp ? underRunner(cmd, troupe, true) : cmd, files: {} };
  const spec: McpServerSpec = { command: troupe, args: ["mcp"], envNames: [...MCP_SERVER_ENV], toolTimeoutMs: MCP_AGENT_TOOL_TIMEOUT_MS, inputDir, permissions };
  const inj = provider.mcp(spec);
  const [exe, ...rest] = cmd.argv;
  const env = inj.env || cmd.env ? { ...cmd.env, ...inj.env } : undefined;
  const configured = { ...cmd, argv: [exe!, ...inj.args, ...rest], ...(env && { env }) };
  return { cmd: cmd.acp ? underRunner(configured, troupe, false) : configured, files: inj.files ?? {} };
}

/**
 * An ACP agent's command under its runner (`troupe acp-run`, src/acp/), which holds the agent's
 * stdio for the session. troupe's MCP server goes in the agent's `session/new` (`--mcp`) only for
 * a CLI troupe has no other way to configure: a CLI's own settings can say more (Gemini CLI's
 * trust the server and give its tools a timeout above the longest wait; ACP has no word for either).
 */
export function underRunner(cmd: ProviderCommand, troupe: string, mcp: boolean): ProviderCommand {
  const { acp, ...rest } = cmd;
  // `--troupe`: the path its prompt names troupe by, which the rules of its own commands match
  const flags = ["--permissions", acp!.permissions, "--troupe", troupe, ...(acp!.mode ? ["--mode", acp!.mode] : []), ...(acp!.load ? ["--load", acp!.load] : []), ...(acp!.loadAfter !== undefined ? ["--load-after", String(acp!.loadAfter)] : []), ...(acp!.allow ?? []).flatMap((r) => ["--allow", r]), ...(acp!.deny ?? []).flatMap((r) => ["--deny", r]), ...(mcp ? ["--mcp"] : [])];
  return { ...rest, argv: [troupe, "acp-run", ...flags, "--", ...cmd.argv] };
}

/** Writes the files in the agent's input folder, never through a link below `trusted` (the workspace's `.troupe/`). */
export function writeMcpFiles(files: Record<string, string>, trusted: string): void {
  for (const [path, content] of Object.entries(files)) writeGuarded(path, content, trusted);
}
