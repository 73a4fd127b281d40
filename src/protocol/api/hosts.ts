import { endpoint, reply } from "./endpoint.ts";
import { schema } from "./schemas.ts";

/**
 * The workspace's hosts as a pool (docs/remotes.md, "Hosts as a pool"): this machine and every
 * remote given slots. A daemon answers for itself (`host`), and for its pool by asking each
 * remote's daemon the same over its link (`hosts`).
 */
export const HOST_ENDPOINTS = {
  host: endpoint({
    method: "GET",
    path: "/v1/host",
    summary: "This daemon as a host of a pool: its platform, agents running, the providers it finds, its accounts (the public view).",
    rule: "person",
    does: "read what this host has",
    reply: reply.key(schema("hosts", "HostInventoryResponseSchema"), "host"),
  }),
  hosts: endpoint({
    method: "GET",
    path: "/v1/hosts",
    summary: "The workspace's pool: this machine and each remote with slots, each asked over its link (`{hosts: [{name, address, slots, reachable, error, platform, running, providers, accounts, checkedAt}]}`).",
    rule: "person",
    does: "list the pool's hosts",
    reply: reply.key(schema("hosts", "PoolHostListResponseSchema"), "hosts"),
  }),
} as const;
