import { TroupeError } from "../errors.ts";
import type { PermissionService } from "../permissions/service.ts";
import type { PERMISSION_ENDPOINTS } from "../protocol/api/permissions.ts";
import type { HandlersOf } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The permission endpoints over the permission service (the guard has let the caller through). */
export function permissionsApi(permissions: PermissionService, waits: PurposefulWaits): HandlersOf<typeof PERMISSION_ENDPOINTS> {
  return {
    filePermission(caller, req) {
      // the guard lets only an agent through; it files for itself, whatever it names
      if (caller.kind !== "agent") throw new TroupeError("forbidden", "only an agent files a permission request");
      return permissions.file(caller.agent, req);
    },
    permissions: (_caller, { pending, status }) => permissions.list({ pending: pending || status === "pending" }),
    permission: (_caller, { id }) => permissions.get(id),
    waitPermission: (caller, { id, timeout, wait }, signal) => waits.during(caller, () => permissions.wait(id, timeout ?? wait ?? 0, signal)),
    decidePermission: (_caller, { id, ...decision }) => permissions.decide(id, decision),
  };
}
