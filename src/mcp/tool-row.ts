import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { EndpointMethods } from "../client/client.ts";
import type { Endpoints, Input, Result } from "../protocol/api/index.ts";
import type { McpContext } from "./context.ts";

/** The endpoints a tool may name: every row of the API table but the event stream. */
type ToolEndpoint = keyof EndpointMethods;

/** A field of an endpoint's input (its path parameter, query or body), by its name in the table. */
type FieldName<K extends ToolEndpoint> = keyof Input<Endpoints[K]> & string;

/** An endpoint's field as a tool takes it: as the table describes it, or with the model's own description. */
type FieldRef<F extends string = string> = F | { readonly field: F; readonly describe: string };

/** The endpoint's fields a tool takes, each under the tool's name for it (`agent: "ref"`). */
type FieldMap<K extends ToolEndpoint> = Readonly<Record<string, FieldRef<FieldName<K>>>>;

/** A tool's own fields, each a zod schema (the SDK takes zod 4 shapes as they are). */
type Own = Readonly<Record<string, z.ZodType>>;

type FieldOf<R> = R extends { readonly field: infer F } ? F : R;

/** What a tool is called with: its endpoint's fields under the tool's names, then its own fields. */
type ToolArgs<K extends ToolEndpoint, F extends FieldMap<K> | undefined, O extends Own> = (F extends FieldMap<K>
  ? { -readonly [T in keyof F]: Input<Endpoints[K]>[FieldOf<F[T]> & keyof Input<Endpoints[K]>] }
  : Input<Endpoints[K]>) &
  z.output<z.ZodObject<O>>;

/** What a composite tool's `run` gets besides its arguments: the call's abort signal (the host cancelled it). */
interface ToolExtra {
  signal: AbortSignal;
}

/**
 * One MCP tool, as data: the endpoint of the API table it stands for, and how it differs from it.
 * Its input schema is derived from the endpoint's (tool-input.ts): the fields `input` names, as
 * the daemon validates them, then the tool's `own`. A plain row (no `run`) is one call of its
 * endpoint through the client, by the endpoint's key, its reply shown as JSON (through `view`);
 * `run` is for the tools that do more than that one call (wait, spawn with a briefing).
 */
interface ToolRow<K extends ToolEndpoint, F extends FieldMap<K> | undefined, O extends Own> {
  readonly name: string;
  readonly endpoint: K;
  /** What the model reads. */
  readonly description: string;
  /** The endpoint's fields the tool takes, under the tool's names; unset: every one, as the table names them; `{}`: none. */
  readonly input?: F;
  /** The tool's own fields (a filter, a timeout), not its endpoint's. */
  readonly own?: O;
  /** A plain row's reply as the model reads it (as JSON); unset: the reply itself. */
  readonly view?: (reply: Result<Endpoints[K]>, args: ToolArgs<K, F, O>) => unknown;
  /** A plain row whose call may be sent twice: a daemon gone meanwhile is ridden out (withReconnect). */
  readonly reconnect?: true;
  /**
   * It only reads (agents, the caller's own inbox): MCP's `readOnlyHint`, which a host may act on.
   * Claude Code (2.1.332) lets a plan-mode agent call these and no other MCP tool, and may send a
   * read-only call twice when its server went away mid-call.
   */
  readonly readOnly?: true;
  /** A composite tool's body, in place of the one call. */
  readonly run?: (ctx: McpContext, args: ToolArgs<K, F, O>, extra: ToolExtra) => Promise<CallToolResult>;
}

/** A row with its types erased, as the registration loop and the tests read it. */
export interface Tool {
  readonly name: string;
  readonly endpoint: ToolEndpoint;
  readonly description: string;
  readonly input?: Readonly<Record<string, FieldRef>>;
  readonly own?: Own;
  readonly view?: (reply: unknown, args: Record<string, unknown>) => unknown;
  readonly reconnect?: true;
  readonly readOnly?: true;
  readonly run?: (ctx: McpContext, args: Record<string, unknown>, extra: ToolExtra) => Promise<CallToolResult>;
}

/** A row of the tools' table, checked against its endpoint: the fields it names are the endpoint's, its view and run typed by them. */
export function tool<K extends ToolEndpoint, const F extends FieldMap<K> | undefined = undefined, O extends Own = Record<never, never>>(row: ToolRow<K, F, O>): Tool {
  return row as unknown as Tool;
}

/** The endpoint's field a tool's field stands for, and the description the tool gives it (if its own). */
export function fieldRef(ref: FieldRef): { field: string; describe?: string } {
  return typeof ref === "string" ? { field: ref } : ref;
}
