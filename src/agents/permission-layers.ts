import { TroupeError } from "../errors.ts";
import { PermissionModeSchema } from "../protocol/entities.ts";
import type { PermissionMode } from "../protocol/permission-modes.ts";
import type { PermissionPolicy } from "../protocol/permission.ts";
import type { AgentRecord, Store } from "../store/index.ts";
import { readUserConfig } from "../user-config.ts";
import { providerConfig, readWorkspaceConfig } from "../workspace-config.ts";

/** A policy as one layer states it; `allowedTools` (the older name) is more allow rules. */
export interface PolicyLayer {
  /** Where it comes from, for a refusal (`--permissions`, `profile reviewer`, ...). */
  from: string;
  mode?: string | null;
  allow?: readonly string[] | null;
  deny?: readonly string[] | null;
}

export interface ResolvedPolicy {
  mode: PermissionMode;
  allow: string[];
  deny: string[];
}

/**
 * Merges layers in precedence order (spawn flags, profile, initiative, workspace config, user
 * config): the first layer that names a mode wins, rules add up (a deny wins over any allow when
 * they are applied, src/permissions/rules.ts). No mode anywhere is `skip`, today's default.
 */
export function mergeLayers(layers: readonly PolicyLayer[]): ResolvedPolicy {
  let mode: PermissionMode | null = null;
  const allow = new Set<string>();
  const deny = new Set<string>();
  for (const l of layers) {
    if (mode === null && l.mode) {
      const m = PermissionModeSchema.safeParse(l.mode);
      if (!m.success) throw new TroupeError("bad_request", `${l.from}: permissions '${l.mode}' is none of ${PermissionModeSchema.options.join(", ")}`);
      mode = m.data;
    }
    for (const r of l.allow ?? []) allow.add(r);
    for (const r of l.deny ?? []) deny.add(r);
  }
  return { mode: mode ?? "skip", allow: [...allow], deny: [...deny] };
}

const fromPolicy = (from: string, p: PermissionPolicy | null | undefined): PolicyLayer => ({ from, ...p });

/**
 * The layers below an agent's own (workspace config, its provider's section, the user's config),
 * read afresh at each call: an edit applies to the next request of an agent already running.
 */
export function configLayers(stateDir: string, provider: string): PolicyLayer[] {
  const pc = providerConfig(stateDir, provider);
  return [
    { from: `.troupe/config.json providers.${provider}`, mode: pc.permissions, allow: pc.allowedTools },
    fromPolicy(".troupe/config.json permissions", readWorkspaceConfig(stateDir).permissions),
    fromPolicy("~/.config/troupe/config.json permissions", readUserConfig().permissions),
  ];
}

/** The agent's rules now: its own (spawn, "allow always") and the configs' as they are read today. */
export function rulesOf(d: { store: Store; ws: { stateDir: string } }, rec: AgentRecord): { allowedTools: string[]; deniedTools: string[] } {
  const merged = mergeLayers([
    { from: rec.name, allow: d.store.permissions.rules(rec.id, "allow"), deny: d.store.permissions.rules(rec.id, "deny") },
    ...configLayers(d.ws.stateDir, rec.provider),
  ]);
  return { allowedTools: merged.allow, deniedTools: merged.deny };
}
