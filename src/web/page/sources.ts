import { TaggedClient } from "../../client/tagged-client.ts";
import { parserFor } from "../../output/render.ts";
import { SourcesMirror, type MirrorSource } from "../../ui/sources/sources-mirror.ts";
import type { AttentionItem } from "../../ui/mirror/attention.ts";
import { RoutingClient } from "../../client/routing-client.ts";
import { PageTransport } from "./page-transport.ts";

/** A source as the web process names it (`GET /api/sources`). */
export interface PageSource {
  label: string;
  title: string;
  remote: boolean;
}

/** The page's view of its sources: the dashboard's mirror over them all, and a client that routes each call to its agent's daemon. */
export interface Followed {
  mirror: SourcesMirror;
  client: RoutingClient;
  /** A source's own client, by its label (a new agent starts there). */
  at(label: string): TaggedClient;
  sources: PageSource[];
}

/**
 * The same mirror the dashboard runs over several sources (src/ui/sources/), each source's
 * client the table's (TroupeClient's methods, ids tagged by its label), over the web process.
 */
export function followPage(sources: PageSource[], key: string, loggedOut: () => void, onAttention: (items: AttentionItem[]) => void): Followed {
  const clients = sources.map((s) => new TaggedClient(s.label, { transport: new PageTransport(s.label, key, loggedOut), unchecked: true }));
  const mirror = new SourcesMirror(
    sources.map((s, i): MirrorSource => ({ label: s.label, title: s.title, remote: s.remote, client: clients[i]! })),
    parserFor,
    { onAttention },
  );
  const client = new RoutingClient(
    sources.map((s, i) => ({ label: s.label, client: clients[i]! })),
    mirror.locate,
  );
  return { mirror, client, sources, at: (label) => clients[Math.max(0, sources.findIndex((s) => s.label === label))]! };
}
