import { createServer } from "node:net";
import { TroupeError } from "../../errors.ts";
import type { PortsConfig } from "../../protocol/config.ts";
import type { PortLeaseRepo } from "../../store/port-leases.ts";

/** Whether something else listens on the port: a listener bound to any of these keeps ours from binding. */
const PROBE_HOSTS = ["127.0.0.1", "0.0.0.0"];

/** Whether the port can be bound (briefly: the server is closed at once) on 127.0.0.1 and 0.0.0.0. node:net, the same on Bun and Deno. */
export async function portFree(port: number): Promise<boolean> {
  for (const host of PROBE_HOSTS) {
    const bound = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once("error", () => resolve(false));
      server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(true)));
    });
    if (!bound) return false;
  }
  return true;
}

/**
 * Leases the agent `per` ports of the config's range for its worktree: the lowest that no agent
 * holds (taken in one transaction, so concurrent spawns never share one) and that nothing else
 * listens on (tried after the lease; a busy one is given back and skipped). A range with too few
 * left refuses the spawn, naming it, leasing nothing.
 */
export async function leasePorts(leases: PortLeaseRepo, agentId: string, range: Required<PortsConfig>, free: (port: number) => Promise<boolean> = portFree): Promise<number[]> {
  const busy = new Set<number>();
  for (;;) {
    const ports = leases.take(agentId, range, range.per, busy);
    if (!ports) {
      const held = leases.heldIn(range);
      throw new TroupeError(
        "ports_exhausted",
        `no ${range.per === 1 ? "free port" : `${range.per} free ports`} left in ports ${range.from}-${range.to} (workspace config): ${held} held by agents' worktrees, ${busy.size} in use by other programs`,
      );
    }
    const taken = await Promise.all(ports.map(async (p) => ({ p, ok: await free(p).catch(() => false) })));
    const inUse = taken.filter((t) => !t.ok).map((t) => t.p);
    if (!inUse.length) return ports;
    leases.release(agentId);
    for (const p of inUse) busy.add(p);
  }
}

/** The environment of an agent holding `ports`: `PORT` and `TROUPE_PORT` the first, `TROUPE_PORT_<n>` each. */
export function portsEnv(ports: readonly number[]): Record<string, string> {
  if (!ports.length) return {};
  const env: Record<string, string> = { PORT: String(ports[0]), TROUPE_PORT: String(ports[0]) };
  ports.forEach((p, i) => (env[`TROUPE_PORT_${i + 1}`] = String(p)));
  return env;
}
