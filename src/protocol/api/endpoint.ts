import type { z } from "zod";
import type { QuerySpec, QueryValue } from "./query.ts";
import type { ReplyCheck } from "./replies.ts";
import type { SchemaRef } from "./schemas.ts";

/**
 * One endpoint of the daemon's API, as data: the router, the typed client, the authorization
 * guard, the MCP tools that mirror an endpoint and docs/api.md all read it. Its key in the table
 * (src/protocol/api/index.ts) names it: the client method and the service handler of that name.
 */
export interface Endpoint {
  readonly method: "GET" | "POST" | "PATCH" | "DELETE";
  /** Written out whole; `:name` is a path parameter (at most one). */
  readonly path: `/v1/${string}`;
  /** What it does, for docs/api.md. */
  readonly summary: string;
  /** Who may call it, checked before the body is read. */
  readonly rule: Rule;
  /** What the caller tries, in words (`$`: the target's name), for a refusal: "x may not stop y: ...". */
  readonly does: string;
  /** What the path parameter names, when the rule (or a refusal's words) needs the agent it is about. */
  readonly target?: TargetKind;
  /** Each path parameter, described. */
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: QuerySpec;
  /** The JSON body (POST, PATCH). */
  readonly body?: SchemaRef;
  /** Body fields only some callers may set, each with its own rule (checked once the body is valid). */
  readonly fields?: Readonly<Record<string, { readonly rule: Rule; readonly does: string }>>;
  readonly reply: Reply;
  /** 201 for what creates; else 200. */
  readonly status?: 200 | 201;
  /** Answered whatever the client's build (to see which daemon runs, and to stop it); else a build mismatch is 409. */
  readonly anyBuild?: true;
  /**
   * Also answered for a client of an older build: what a process that lives as long as an agent's
   * session calls (its ACP runner, `troupe acp-run`), so a daemon upgraded meanwhile serves it.
   * Such a row's request and reply only ever grow optional fields. A newer client still restarts the daemon.
   */
  readonly olderBuilds?: true;
  /**
   * The body's `env` is the caller's environment (what the agents it starts get). Through a link
   * (`ssh host troupe proxy`) the host's environment replaces it: this machine's PATH and HOME
   * mean nothing there.
   */
  readonly callerEnv?: true;
}

/**
 * Who may call an endpoint (src/services/policy.ts decides; the rules guard against a confused
 * or misbehaving agent, not a hostile process of the same Unix user: see docs/security.md).
 */
export type Rule =
  /** the person and every agent */
  | "anyone"
  /** the person alone (no token) */
  | "person"
  /** an agent, about itself only (never the person: it has no signal file) */
  | "agent"
  /** the person, the target agent itself, and the agents that started it (transitively) */
  | "lineage"
  /** the person, and the agent the target is (a conversation's addressee) */
  | "addressee";

export const RULES: Record<Rule, string> = {
  anyone: "the person and every agent",
  person: "the person alone",
  agent: "an agent, for itself",
  lineage: "the person, the agent itself and the agents that started it",
  addressee: "the person, and the agent it is addressed to",
};

/** The agent a path parameter leads to: an agent itself, a conversation's addressee, a permission request's agent. */
type TargetKind = "agent" | "conversation" | "permission";

/** A JSON reply: the whole body, or (`key`) `{key: result}` where the service returns `result`. */
export interface JsonReply<S extends z.ZodType = z.ZodType, K extends string | null = string | null> {
  readonly kind: "json";
  readonly schema: SchemaRef<S>;
  readonly key: K;
  /** A zod-free check generated from `schema` (reply-checks.ts), for the replies read on hot paths. */
  readonly check?: ReplyCheck<z.output<S>>;
}
/** `{ok: true}`: the service returns nothing. */
export interface OkReply {
  readonly kind: "ok";
}
/** Server-sent events, each `data` one `schema`. */
export interface StreamReply<S extends z.ZodType = z.ZodType> {
  readonly kind: "stream";
  readonly schema: SchemaRef<S>;
}
type Reply = JsonReply | OkReply | StreamReply;

export const reply = {
  /** `{key: result}`. */
  key: <S extends z.ZodType, K extends keyof z.output<S> & string>(schema: SchemaRef<S>, key: K, check?: ReplyCheck<z.output<S>>): JsonReply<S, K> => ({
    kind: "json",
    schema,
    key,
    ...(check && { check }),
  }),
  /** The result is the body. */
  whole: <S extends z.ZodType>(schema: SchemaRef<S>): JsonReply<S, null> => ({ kind: "json", schema, key: null }),
  ok: { kind: "ok" } as OkReply,
  stream: <S extends z.ZodType>(schema: SchemaRef<S>): StreamReply<S> => ({ kind: "stream", schema }),
};

/** The parameter names of a path: `"/v1/agents/:ref/stop"` → `"ref"`. */
export type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer R}` ? N | ParamNames<`/${R}`> : P extends `${string}:${infer N}` ? N : never;

type Described<E extends Endpoint> = [ParamNames<E["path"]>] extends [never] ? unknown : { readonly params: Readonly<Record<ParamNames<E["path"]>, string>> };

/** A row of the table, checked: every path parameter described. */
export function endpoint<const E extends Endpoint>(e: E & Described<E>): E {
  return e;
}

type BodySchema<E> = E extends { readonly body: SchemaRef<infer S> } ? S : never;
type Query<E> = E extends { readonly query: infer Q extends QuerySpec } ? Q : Record<never, never>;

/** The path parameters. */
type Params<E extends Endpoint> = { [N in ParamNames<E["path"]>]: string };
/** The body as the service receives it (defaults applied) and as a client sends it. */
type BodyOut<E extends Endpoint> = [BodySchema<E>] extends [never] ? unknown : z.output<BodySchema<E>>;
type BodyIn<E extends Endpoint> = [BodySchema<E>] extends [never] ? unknown : z.input<BodySchema<E>>;
type QueryOut<E extends Endpoint> = { -readonly [K in keyof Query<E>]: QueryValue<Query<E>[K]> };
type QueryIn<E extends Endpoint> = { -readonly [K in keyof Query<E>]?: QueryValue<Query<E>[K]> };

/** What the service handler gets: the path parameters, then the query, then the body (a body never names a parameter). */
export type Input<E extends Endpoint> = Params<E> & QueryOut<E> & BodyOut<E>;
/** What a client sends besides the path parameter. */
export type Payload<E extends Endpoint> = QueryIn<E> & BodyIn<E>;

/** What the service returns and the client resolves to. */
export type Result<E extends Endpoint> =
  E["reply"] extends JsonReply<infer S, infer K> ? (K extends keyof z.output<S> ? z.output<S>[K] : z.output<S>) : E["reply"] extends OkReply ? void : never;
