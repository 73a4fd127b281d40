import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { TroupeError } from "../../errors.ts";
import { writePrivateFile } from "../../file-modes.ts";
import { McpServerSchema } from "../../protocol/profile.ts";
import { SandboxConfigSchema } from "../../protocol/sandbox.ts";
import type { ProfileSandbox } from "../../sandbox/layers.ts";

/**
 * The profile a spawn ran under, as it was then (`.troupe/agents/<id>/role.json`, beside the
 * environment): a resume or a retry of the agent gets the same role, not whatever the file says now.
 */
const SpawnRoleSchema = z.object({
  profile: z.string(),
  instructions: z.string(),
  allowedTools: z.array(z.string()).optional(),
  /** The profile's deny rules. */
  deny: z.array(z.string()).optional(),
  mcpServers: z.record(z.string(), McpServerSchema).optional(),
  /** The profile's sandbox, and whether it may loosen (a user profile, a trusted repository one). */
  sandbox: z.object({ config: SandboxConfigSchema, trusted: z.boolean() }).optional(),
});
export type SpawnRole = z.infer<typeof SpawnRoleSchema>;

const file = (agentDir: string) => join(agentDir, "role.json");

export function saveRole(agentDir: string, role: SpawnRole): void {
  writePrivateFile(file(agentDir), `${JSON.stringify(role)}\n`);
}

/** The agent's role; null for an agent spawned without a profile (no file). A damaged file is an error. */
export function loadRole(agentDir: string): SpawnRole | null {
  let text: string;
  try {
    text = readFileSync(file(agentDir), "utf8");
  } catch {
    return null;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = SpawnRoleSchema.safeParse(json);
  if (!parsed.success) throw new TroupeError("invalid_state", `${file(agentDir)} (the profile the agent was spawned with) is damaged`);
  return parsed.data;
}

/** The sandbox layer of the agent's profile (src/sandbox/layers.ts); null without a role or a sandbox in it. */
export function roleSandbox(role: SpawnRole | null): ProfileSandbox | null {
  return role?.sandbox ? { profile: role.profile, ...role.sandbox } : null;
}
