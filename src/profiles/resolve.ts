import { TroupeError } from "../errors.ts";
import type { SpawnOptions } from "../agents/start/new-agent.ts";
import type { SpawnRole } from "../agents/files/spawn-role.ts";
import type { Profile } from "../protocol/profile.ts";
import type { ProfileCatalog } from "./catalog.ts";

/** A spawn request as the spawn use case takes it: under its profile when it names one. */
export function resolveSpawn(profiles: ProfileCatalog, req: SpawnOptions): { req: SpawnOptions; role: SpawnRole | null } {
  return req.profile ? withProfile(req, profiles.get(req.profile)) : { req, role: null };
}

/**
 * A spawn request under a profile. Precedence: the request's own fields, then the profile's, then
 * the workspace config's (applied at the spawn, per provider). A profile's model and tools
 * are for its own provider: a request naming another provider keeps neither.
 */
export function withProfile(req: SpawnOptions, p: Profile): { req: SpawnOptions; role: SpawnRole } {
  const provider = req.provider ?? p.provider;
  if (!provider) throw new TroupeError("bad_request", `profile '${p.name}' (${p.file}) names no provider: give one`);
  const own = p.provider === null || p.provider === provider;
  if (p.mcpServers && provider !== "claude") {
    throw new TroupeError("bad_request", `profile '${p.name}' (${p.file}) sets mcpServers, which ${provider} does not take from a profile`);
  }
  if (p.mcpServers && p.trusted === false) {
    throw new TroupeError(
      "untrusted_config",
      `${p.file} starts MCP servers (${Object.keys(p.mcpServers).join(", ")}); review the file, then run 'troupe trust ${p.file}' to allow it`,
    );
  }
  return {
    req: {
      ...req,
      provider,
      model: req.model ?? (own ? (p.model ?? undefined) : undefined),
      permissions: req.permissions ?? p.permissions ?? undefined,
      budgetUsd: req.budgetUsd ?? p.budget ?? undefined,
    },
    role: {
      profile: p.name,
      instructions: p.instructions,
      ...(own && p.allowedTools && { allowedTools: p.allowedTools }),
      // a deny holds whatever the provider: dropping it would widen what the agent may do
      ...(p.deny && { deny: p.deny }),
      ...(p.mcpServers && { mcpServers: p.mcpServers }),
      ...(p.sandbox && { sandbox: { config: p.sandbox, trusted: p.trusted === true } }),
    },
  };
}
