import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { TroupeError } from "../errors.ts";
import { MCP_TOOL_TIMEOUT_MS } from "../protocol/mcp.ts";
import { selfCommand } from "../self.ts";
import { stdout } from "./streams.ts";

export const INSTALL_TARGETS = ["claude", "codex", "gemini"] as const;
export type InstallTarget = (typeof INSTALL_TARGETS)[number];
export const isInstallTarget = (s: string): s is InstallTarget => (INSTALL_TARGETS as readonly string[]).includes(s);

interface Plan {
  file: string;
  snippet: string;
  /** The file's new content from its current one (null: none yet). */
  merge(current: string | null): string;
  hint?: string;
}

/** A JSON config whose `mcpServers.troupe` entry is set, every other key kept. */
function jsonMerge(file: string, entry: Record<string, unknown>) {
  return (current: string | null): string => {
    let doc: Record<string, unknown> = {};
    if (current !== null && current.trim()) {
      try {
        const parsed: unknown = JSON.parse(current);
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
        doc = parsed as Record<string, unknown>;
      } catch (err) {
        throw new TroupeError("bad_request", `${file} is not a JSON object (${(err as Error).message}); add the snippet by hand`);
      }
    }
    const servers = typeof doc.mcpServers === "object" && doc.mcpServers !== null ? (doc.mcpServers as Record<string, unknown>) : {};
    return `${JSON.stringify({ ...doc, mcpServers: { ...servers, troupe: entry } }, null, 2)}\n`;
  };
}

/** Replaces an existing `[mcp_servers.troupe]` table (up to the next table) or appends one. */
function tomlMerge(table: string) {
  return (current: string | null): string => {
    const text = current ?? "";
    const start = text.search(/^\[mcp_servers\.troupe\]\s*$/m);
    if (start < 0) return `${text}${text && !text.endsWith("\n") ? "\n" : ""}${text ? "\n" : ""}${table}`;
    const after = text.slice(start + 1).search(/^\[/m);
    const end = after < 0 ? text.length : start + 1 + after;
    return `${text.slice(0, start)}${table}${after < 0 ? "" : "\n"}${text.slice(end)}`;
  };
}

function plan(target: InstallTarget): Plan {
  const [command, ...pre] = selfCommand();
  const args = [...pre, "mcp"];
  switch (target) {
    case "claude": {
      // user-scope servers live in ~/.claude.json (in CLAUDE_CONFIG_DIR when set)
      const file = join(process.env.CLAUDE_CONFIG_DIR || homedir(), ".claude.json");
      const entry = { type: "stdio", command, args, timeout: MCP_TOOL_TIMEOUT_MS };
      return { file, snippet: JSON.stringify({ mcpServers: { troupe: entry } }, null, 2), merge: jsonMerge(file, entry), hint: `or: claude mcp add --scope user troupe -- ${[command, ...args].join(" ")}` };
    }
    case "codex": {
      const file = join(process.env.CODEX_HOME || join(homedir(), ".codex"), "config.toml");
      const table = `[mcp_servers.troupe]\ncommand = ${JSON.stringify(command)}\nargs = ${JSON.stringify(args)}\ntool_timeout_sec = ${MCP_TOOL_TIMEOUT_MS / 1000}\n`;
      return { file, snippet: table, merge: tomlMerge(table) };
    }
    case "gemini": {
      const file = join(homedir(), ".gemini", "settings.json");
      const entry = { command, args, timeout: MCP_TOOL_TIMEOUT_MS };
      return { file, snippet: JSON.stringify({ mcpServers: { troupe: entry } }, null, 2), merge: jsonMerge(file, entry) };
    }
  }
}

/** Prints the snippet that adds `troupe mcp` to the person's own CLI; `write`: merges it in, keeping a backup. */
export async function installMcp(target: InstallTarget, write: boolean): Promise<number> {
  const p = plan(target);
  if (!write) {
    await stdout.write(`# add to ${p.file} (or run: troupe mcp --install ${target} --write)\n${p.snippet}\n${p.hint ? `# ${p.hint}\n` : ""}`);
    return 0;
  }
  const current = existsSync(p.file) ? readFileSync(p.file, "utf8") : null;
  const next = p.merge(current);
  mkdirSync(dirname(p.file), { recursive: true });
  let backup = "";
  if (current !== null) {
    backup = `${p.file}.troupe-backup-${Date.now()}`;
    copyFileSync(p.file, backup);
  }
  // written aside and renamed over: a crash leaves the old file or the new one, never half of either
  const tmp = `${p.file}.troupe-${process.pid}.tmp`;
  writeFileSync(tmp, next, { mode: current !== null ? statSync(p.file).mode & 0o777 : 0o600 });
  renameSync(tmp, p.file);
  await stdout.write(`troupe added to ${p.file}${backup ? ` (the previous file is ${backup})` : ""}\n`);
  return 0;
}
