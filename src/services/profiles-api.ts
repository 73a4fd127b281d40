import type { ProfileCatalog } from "../profiles/catalog.ts";
import type { PROFILE_ENDPOINTS } from "../protocol/api/profiles.ts";
import type { HandlersOf } from "./services.ts";

/** Profiles, read afresh from their files at every call. */
export function profilesApi(profiles: ProfileCatalog): HandlersOf<typeof PROFILE_ENDPOINTS> {
  return {
    profiles: () => profiles.read(),
    profile: (_caller, { name }) => profiles.get(name),
  };
}
