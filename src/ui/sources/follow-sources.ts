import { runAttached, type Attached } from "../../client/attach.ts";
import { runRemoteAttached } from "../../client/remote-attach.ts";
import { RoutingClient } from "../../client/routing-client.ts";
import type { Source } from "../../client/sources.ts";
import { TaggedClient } from "../../client/tagged-client.ts";
import type { LineParser } from "../../output/lines.ts";
import type { MirrorOptions } from "../mirror/daemon-mirror.ts";
import { SourcesMirror } from "./sources-mirror.ts";
import { sourceLabels, sourceTitle } from "./source-names.ts";

/** A dashboard over several sources: one mirror of them all, one client that routes, and `t` that goes where the agent is. */
export interface FollowedSources {
  mirror: SourcesMirror;
  client: RoutingClient;
  /** The header's name for them: their labels. */
  title: string;
  attach(agentId: string): Promise<Attached>;
}

export function followSources(sources: readonly Source[], parserFor: (provider: string) => LineParser, opts: MirrorOptions): FollowedSources {
  const labels = sourceLabels(sources);
  const clients = sources.map((s, i) => new TaggedClient(labels[i]!, { transport: s.client.transport, token: s.client.token }));
  const mirror = new SourcesMirror(
    sources.map((s, i) => ({ label: labels[i]!, title: sourceTitle(s), remote: s.kind === "remote", client: clients[i]! })),
    parserFor,
    opts,
  );
  const client = new RoutingClient(
    labels.map((label, i) => ({ label, client: clients[i]! })),
    mirror.locate,
  );
  const attach = (agentId: string): Promise<Attached> => {
    const label = mirror.locate(agentId);
    const i = Math.max(0, labels.indexOf(label ?? ""));
    const s = sources[i]!;
    return s.kind === "remote" ? runRemoteAttached(s.name, s.remote, agentId, clients[i]!) : runAttached(clients[i]!, agentId);
  };
  return { mirror, client, title: labels.join(", "), attach };
}
