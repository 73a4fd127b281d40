import { TroupeError } from "../errors.ts";
import { ENDPOINTS, type Endpoint } from "../protocol/api/index.ts";
import { installEndpointMethods, type EndpointMethods, type TroupeClient } from "./client.ts";

/** One source as the router sends to it. */
export interface RoutedSource {
  /** Unique among the sources: the remote's name, or the workspace folder's name (made unique). */
  label: string;
  client: TroupeClient;
}

/** Finds the source that holds an agent, conversation, initiative, phase or task by its id; null when none does. */
export type Locate = (id: string) => string | null;

/**
 * `name@label` → [name, label] when `label` is a source's: a numbered id its source tagged
 * (`msg_3@box`), or a flow's name (each daemon has its own flows).
 */
function splitLabel(s: string, labels: ReadonlySet<string>): [string, string] | null {
  const at = s.lastIndexOf("@");
  return at > 0 && labels.has(s.slice(at + 1)) ? [s.slice(0, at), s.slice(at + 1)] : null;
}

/**
 * The API of several daemons as one client: each call goes to the daemon that holds what it names
 * (its path parameter, or a body's `to`/`ids`): an id a source tagged carries its label, any
 * other id is looked up in what the dashboard holds. A call that names nothing (the flows, a
 * spawn without a source) goes to the first source; `at(label)` is one source's own client.
 */
export class RoutingClient {
  private readonly byLabel: ReadonlyMap<string, RoutedSource>;
  private readonly labels: ReadonlySet<string>;

  constructor(
    readonly sources: readonly RoutedSource[],
    private readonly locate: Locate,
  ) {
    if (!sources.length) throw new TroupeError("usage", "no source to follow");
    this.byLabel = new Map(sources.map((s) => [s.label, s]));
    this.labels = new Set(this.byLabel.keys());
  }

  /** One source's client; the first source for an unknown label. */
  at(label: string | null | undefined): TroupeClient {
    return this.source(label).client;
  }

  source(label: string | null | undefined): RoutedSource {
    return (label != null ? this.byLabel.get(label) : undefined) ?? this.sources[0]!;
  }

  async call(e: Endpoint, args: readonly unknown[]): Promise<unknown> {
    if (e === ENDPOINTS.flows) return this.allFlows(args[0] as AbortSignal | undefined);
    let target: RoutedSource | null = null;
    const out = [...args];
    if (e.params && typeof out[0] === "string") {
      const split = splitLabel(out[0], this.labels);
      if (split) {
        out[0] = split[0];
        target = this.source(split[1]);
      } else target = this.find(out[0]);
    } else if (out[0] && typeof out[0] === "object" && !(out[0] instanceof AbortSignal)) {
      const body = out[0] as { to?: unknown; ids?: unknown };
      const key = typeof body.to === "string" ? body.to : Array.isArray(body.ids) && typeof body.ids[0] === "string" ? body.ids[0] : null;
      if (key) target = this.find(key);
    }
    // (a remote's proxy gives a spawn or a run the host's environment, never this machine's)
    return (target ?? this.sources[0]!).client.call(e, out);
  }

  private find(id: string): RoutedSource | null {
    const label = this.locate(id);
    return label === null ? null : this.source(label);
  }

  /** Every source's flows, each name tagged with its source (a source that cannot list them adds none). */
  private async allFlows(signal?: AbortSignal): Promise<unknown> {
    const lists = await Promise.all(this.sources.map((s) => s.client.flows(signal).then((fs) => fs.map((f) => ({ ...f, name: `${f.name}@${s.label}` })), () => [])));
    return lists.flat();
  }
}

export interface RoutingClient extends EndpointMethods {}
installEndpointMethods(RoutingClient.prototype);
