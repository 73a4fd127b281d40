import { remoteAddress, remoteTransport } from "../client/remote.ts";
import { TroupeClient } from "../client/client.ts";
import type { LinkTransport } from "../client/link/link-transport.ts";
import { connectTimeoutS } from "../client/link/ssh.ts";
import { TroupeError, errorMessage } from "../errors.ts";
import { LOCAL_HOST, type HostInventory, type PoolHost } from "../protocol/host.ts";
import type { Remote } from "../protocol/remote.ts";

export interface PoolDeps {
  /** This workspace's folder: the local host's address. */
  root: string;
  /** This machine's slots (the workspace config's `dispatch.slots`). */
  localSlots(): number;
  /** This daemon's own inventory. */
  local(): HostInventory;
  /** The user's remotes, read at each look (`troupe remote add/set` change them meanwhile). */
  remotes(): Record<string, Remote>;
  /** The environment its links' ssh runs with (TROUPE_SSH_COMMAND, the connect timeout). */
  env: NodeJS.ProcessEnv;
}

interface Link {
  /** The remote's entry the link was opened for: a changed entry gets a new link. */
  key: string;
  transport: LinkTransport;
  client: TroupeClient;
}

/**
 * The workspace's hosts as a pool: this machine and each remote given slots. Each remote is asked
 * what it has (`GET /v1/host`) over a link of its own, kept open between looks; a host that fails
 * to answer loses its link, so the next look connects again and asks afresh (what it has is
 * refreshed on every reconnect). What a host last said is kept beside its failure.
 */
export class HostPool {
  private readonly links = new Map<string, Link>();
  private readonly lastSeen = new Map<string, HostInventory>();

  /** How long a host may take to answer: ssh's connect, its troupe starting, and its daemon when none ran there. */
  readonly timeoutMs: number;

  constructor(private readonly d: PoolDeps) {
    this.timeoutMs = (connectTimeoutS(d.env) + 10) * 1000;
  }

  async list(): Promise<PoolHost[]> {
    const local: PoolHost = { name: LOCAL_HOST, address: this.d.root, slots: this.d.localSlots(), reachable: true, error: null, ...this.d.local(), checkedAt: Date.now(), tasks: [] };
    const pool = Object.entries(this.d.remotes()).filter((e): e is [string, Remote & { slots: number }] => e[1].slots !== undefined);
    for (const name of [...this.links.keys()]) if (!pool.some(([n]) => n === name)) this.drop(name);
    return [local, ...(await Promise.all(pool.map(([name, remote]) => this.ask(name, remote))))];
  }

  /** The pool's hosts by name: this machine, then each remote with slots. */
  names(): string[] {
    return [LOCAL_HOST, ...Object.entries(this.d.remotes()).flatMap(([name, r]) => (r.slots === undefined ? [] : [name]))];
  }

  /** The remote of the pool named so, and its link's client (opened on its first request); a name outside the pool is an error. */
  host(name: string): { remote: Remote & { slots: number }; client: TroupeClient } {
    const remote = this.d.remotes()[name];
    if (!remote || remote.slots === undefined) throw new TroupeError("remote_not_found", `${name} is not a host of the pool ('troupe hosts' lists them)`);
    return { remote: remote as Remote & { slots: number }, client: this.linkTo(name, remote).client };
  }

  /** A request over `name`'s link failed: the link goes, so the next one connects afresh. */
  failed(name: string): void {
    this.drop(name);
  }

  /** Ends every link (the daemon's stop). */
  close(): void {
    for (const name of [...this.links.keys()]) this.drop(name);
  }

  private async ask(name: string, remote: Remote & { slots: number }): Promise<PoolHost> {
    const base = { name, address: remoteAddress(remote), slots: remote.slots };
    try {
      const inventory = await this.linkTo(name, remote).client.host(AbortSignal.timeout(this.timeoutMs));
      this.lastSeen.set(name, inventory);
      return { ...base, reachable: true, error: null, ...inventory, checkedAt: Date.now(), tasks: [] };
    } catch (err) {
      this.drop(name);
      const last = this.lastSeen.get(name);
      const why = err instanceof DOMException && err.name === "TimeoutError" ? `${name} did not answer within ${this.timeoutMs / 1000} s` : errorMessage(err);
      return { ...base, reachable: false, error: why, platform: last?.platform ?? null, running: null, providers: last?.providers ?? [], accounts: last?.accounts ?? [], checkedAt: Date.now(), tasks: [] };
    }
  }

  private linkTo(name: string, remote: Remote): Link {
    const key = JSON.stringify({ ...remote, slots: undefined });
    const open = this.links.get(name);
    if (open?.key === key) return open;
    if (open) this.drop(name);
    // as the person there, as remoteClient: this machine's agent tokens mean nothing to that daemon
    const transport = remoteTransport(name, remote, this.d.env);
    const link = { key, transport, client: new TroupeClient({ transport }) };
    this.links.set(name, link);
    return link;
  }

  private drop(name: string): void {
    this.links.get(name)?.transport.close();
    this.links.delete(name);
  }
}
