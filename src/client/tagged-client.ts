import type { Endpoint } from "../protocol/api/index.ts";
import { TroupeClient, type ClientOptions } from "./client.ts";
import type { EventFilter, EventMessage } from "./sse.ts";

/**
 * Ids a daemon numbers in order (`msg_<n>`, `perm_<n>`, `rc_<n>`): two daemons both have a
 * `msg_3`. Agents, conversations and the work's ids are random and need no tag.
 */
const NUMBERED = /^(?:msg|perm|rc)_\d{1,15}$/;

/** Keys whose values are the caller's data (a tool call's input, a message's text): never rewritten. */
const OPAQUE = new Set(["input", "updatedInput", "text", "prompt", "code", "env"]);

/** `msg_3` of the source labelled `box1` is `msg_3@box1` to a client that follows several. */
function tagId(id: string, label: string): string {
  return `${id}@${label}`;
}

/** The label of a tagged numbered id, or null for any other string. */
export function idLabel(id: string): string | null {
  const at = id.lastIndexOf("@");
  return at > 0 && NUMBERED.test(id.slice(0, at)) ? id.slice(at + 1) : null;
}

/** Rewrites every numbered `id` in a reply or an event (objects and arrays, a few levels deep). */
function rewrite(value: unknown, fn: (id: string) => string, depth = 0): unknown {
  if (depth > 4 || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((v) => rewrite(v, fn, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === "string") out[k] = k === "id" ? fn(v) : v;
    else if (OPAQUE.has(k)) out[k] = v;
    else if (k === "ids" && Array.isArray(v)) out[k] = v.map((x) => (typeof x === "string" ? fn(x) : x));
    else out[k] = rewrite(v, fn, depth + 1);
  }
  return out;
}

/**
 * One source's client as a dashboard over several sees it: the numbered ids in what it returns
 * carry the source's label (`msg_3@box1`), and the label is taken off again on the way in, so
 * the sources' entities can share one map and an action finds its daemon by the id alone
 * (`routing-client.ts`). With one source nothing is tagged: this client is not used.
 */
export class TaggedClient extends TroupeClient {
  constructor(
    readonly label: string,
    opts: ClientOptions,
  ) {
    super(opts);
  }

  private readonly tag = (id: string): string => (NUMBERED.test(id) ? tagId(id, this.label) : id);
  private readonly untag = (id: string): string => (idLabel(id) === this.label ? id.slice(0, id.lastIndexOf("@")) : id);

  override async call(e: Endpoint, args: readonly unknown[]): Promise<unknown> {
    const plain = args.map((a) => (typeof a === "string" ? this.untag(a) : a instanceof AbortSignal ? a : rewrite(a, this.untag)));
    return rewrite(await super.call(e, plain), this.tag);
  }

  override async *events(since: number | null, signal?: AbortSignal, filter?: EventFilter): AsyncGenerator<EventMessage> {
    for await (const msg of super.events(since, signal, filter)) {
      // output is most of the stream and holds no numbered id
      yield msg.event.type === "agent:output" ? msg : { id: msg.id, event: rewrite(msg.event, this.tag) as EventMessage["event"] };
    }
  }
}
