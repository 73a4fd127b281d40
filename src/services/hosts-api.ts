import type { HostPool } from "../hosts/pool.ts";
import type { HOST_ENDPOINTS } from "../protocol/api/hosts.ts";
import type { HostInventory } from "../protocol/host.ts";
import type { Store } from "../store/index.ts";
import type { HandlersOf } from "./services.ts";

/** This daemon as a host, and the workspace's pool of hosts with the tasks dispatch placed on each. */
export function hostsApi(pool: HostPool, local: () => HostInventory, store: Store): HandlersOf<typeof HOST_ENDPOINTS> {
  const placed = (): Map<string, string[]> => {
    const out = new Map<string, string[]>();
    for (const init of store.initiatives.list()) {
      for (const t of store.tasks.listByInitiative(init.id)) {
        if (t.status !== "in_progress" || t.host === null) continue;
        out.set(t.host, [...(out.get(t.host) ?? []), `${init.slug}/${t.slug}`]);
      }
    }
    return out;
  };
  return {
    host: () => local(),
    hosts: async () => {
      const hosts = await pool.list();
      const tasks = placed();
      return hosts.map((h) => ({ ...h, tasks: tasks.get(h.name) ?? [] }));
    },
  };
}
