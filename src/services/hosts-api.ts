import type { HostPool } from "../hosts/pool.ts";
import type { HOST_ENDPOINTS } from "../protocol/api/hosts.ts";
import type { HostInventory } from "../protocol/host.ts";
import type { HandlersOf } from "./services.ts";

/** This daemon as a host, and the workspace's pool of hosts. */
export function hostsApi(pool: HostPool, local: () => HostInventory): HandlersOf<typeof HOST_ENDPOINTS> {
  return {
    host: () => local(),
    hosts: () => pool.list(),
  };
}
