import { TroupeError } from "../errors.ts";
import type { PermissionService } from "../permissions/service.ts";
import type { Guard } from "./guard.ts";
import type { PermissionsApi } from "./services.ts";
import type { PurposefulWaits } from "./waits.ts";

/** The permission service behind the policy: each method is authorized for its caller, then done. */
export function permissionsApi(permissions: PermissionService, guard: Guard, waits: PurposefulWaits): PermissionsApi {
  return {
    file(caller, req) {
      guard(caller, "permissions.file");
      // the guard lets only an agent through; it files for itself, whatever it names
      if (caller.kind !== "agent") throw new TroupeError("forbidden", "only an agent files a permission request");
      return permissions.file(caller.agent, req);
    },
    list(caller, q) {
      guard(caller, "permissions.read");
      return permissions.list(q);
    },
    get(caller, id) {
      guard(caller, "permissions.read");
      return permissions.get(id);
    },
    wait(caller, id, waitMs, signal) {
      guard(caller, "permissions.read");
      return waits.during(caller, () => permissions.wait(id, waitMs, signal));
    },
    decide(caller, id, decision) {
      const r = permissions.get(id);
      guard(caller, "permissions.decide", { id: r.agentId, name: r.agentName });
      return permissions.decide(id, decision);
    },
  };
}
