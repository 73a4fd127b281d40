import type { SpawnRequest } from "../protocol/api-agents.ts";
import type { Agent } from "../protocol/entities.ts";
import type { PoolHost } from "../protocol/host.ts";

/**
 * What dispatch needs of the workspace's pool of hosts; the daemon's HostPool provides it over
 * its links (src/hosts/host-runs.ts), each call as the person on that host. Code never goes this
 * way: git carries it over the same OpenSSH (`git`).
 */
export interface HostPort {
  /** This machine first, then each remote with slots; this machine alone: no pool. */
  list(): Promise<PoolHost[]>;
  /** git's way to a host's repository: its ssh URL, and the environment that runs the links' OpenSSH. */
  git(host: string): { url: string; env: Record<string, string> };
  spawn(host: string, req: SpawnRequest): Promise<Agent>;
  /** The agent of that name there; null when the host has none. Throws when the host does not answer (within `signal`). */
  agent(host: string, name: string, signal?: AbortSignal): Promise<Agent | null>;
  /**
   * Each agent as that host's daemon changes it, from now, until `signal` aborts; ends (or
   * throws) when the link or the stream goes.
   */
  agentUpdates(host: string, signal: AbortSignal): AsyncIterable<Agent>;
  /** Resumes it there with `message`. */
  resume(host: string, name: string, message: string): Promise<Agent>;
}
