import { basename } from "node:path";
import type { z } from "zod";
import { fileError, splitFrontMatter } from "../front-matter.ts";
import { describeIssue } from "../protocol/issue.ts";
import { ClaudeAgentFrontMatterSchema, ProfileFrontMatterSchema, ProfileNameSchema, type Profile, type ProfileOrigin } from "../protocol/profile.ts";
import { getProvider } from "../../providers/index.ts";

/**
 * One profile file to a Profile, or a `bad_request` naming the file, the field and the reason.
 * Pure: reading the file (untrusted: size cap, regular files) and trust are the loader's.
 */

function fields<S extends z.ZodType>(file: string, data: unknown, schema: S): z.output<S> {
  if (data === null) return schema.parse({}) as z.output<S>;
  if (typeof data !== "object" || Array.isArray(data)) throw fileError(file, "the front matter must be a mapping of fields");
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw fileError(file, describeIssue(parsed.error, "front matter"));
  return parsed.data;
}

function nameFromFile(file: string): string {
  const name = basename(file).replace(/\.md$/, "");
  const ok = ProfileNameSchema.safeParse(name);
  if (!ok.success) throw fileError(file, `name: '${name}' (from the file name) is not a profile name: ${ok.error.issues[0]?.message}`);
  return name;
}

/** A troupe profile: front matter of ProfileFrontMatterSchema, the body is the role's instructions. */
export function parseProfile(file: string, text: string, source: Exclude<ProfileOrigin, "claude">): Profile {
  const { data, body } = splitFrontMatter(file, text);
  const fm = fields(file, data, ProfileFrontMatterSchema);
  if (fm.provider !== undefined && !getProvider(fm.provider)) throw fileError(file, `provider: unknown provider '${fm.provider}' (see 'troupe providers')`);
  const provider = fm.provider ?? null;
  // only Claude Code takes MCP servers from troupe today: refused here, not dropped at spawn time
  if (provider !== null && provider !== "claude" && fm.mcpServers) throw fileError(file, `mcpServers: only the claude provider takes MCP servers from a profile, not ${provider}`);
  return {
    name: fm.name ?? nameFromFile(file),
    description: fm.description ?? null,
    provider,
    model: fm.model ?? null,
    mode: fm.mode ?? null,
    permissions: fm.permissions ?? null,
    allowedTools: fm.allowedTools ?? null,
    deny: fm.deny ?? null,
    mcpServers: fm.mcpServers ?? null,
    budget: fm.budget ?? null,
    sandbox: fm.sandbox ?? null,
    instructions: body,
    source,
    file,
    trusted: null,
  };
}

/** Claude Code's subagent file: `name`, `description`, `tools` (comma-separated), `model`; always the claude provider. */
export function parseClaudeAgent(file: string, text: string): Profile {
  const { data, body } = splitFrontMatter(file, text);
  if (data === null) throw fileError(file, "name: a Claude Code subagent file needs front matter with a name");
  const fm = fields(file, data, ClaudeAgentFrontMatterSchema);
  const tools = typeof fm.tools === "string" ? fm.tools.split(",") : (fm.tools ?? []);
  const allowed = tools.map((t) => t.trim()).filter(Boolean);
  return {
    name: fm.name,
    description: fm.description ?? null,
    provider: "claude",
    model: fm.model && fm.model !== "inherit" ? fm.model : null,
    mode: null,
    permissions: null,
    allowedTools: allowed.length ? allowed : null,
    deny: null,
    mcpServers: null,
    budget: null,
    sandbox: null,
    instructions: body,
    source: "claude",
    file,
    trusted: null,
  };
}
