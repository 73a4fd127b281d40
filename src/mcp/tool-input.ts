import { z } from "zod";
import { ENDPOINTS, loadSchema, type Endpoint } from "../protocol/api/index.ts";
import type { QueryField } from "../protocol/api/query.ts";
import { fieldRef, type Tool } from "./tool-row.ts";

/** A query parameter as a tool argument, always optional (whole numbers stay whole numbers). */
function queryArg(f: QueryField): z.ZodType {
  switch (f.kind) {
    case "int":
      return z.number().int().nonnegative().optional();
    case "flag":
      return z.boolean().optional();
    case "text":
      return z.string().optional();
    case "list":
      return z.array(z.string()).optional();
  }
}

/**
 * Every field of an endpoint's input, by its name in the table, as the daemon validates it: the
 * path parameter (a non-empty string, described as the table describes it), the query, the
 * body's fields (its own schemas). So a tool never accepts what its endpoint refuses, nor the reverse.
 */
export async function endpointFields(e: Endpoint): Promise<Record<string, z.ZodType>> {
  const fields: Record<string, z.ZodType> = {};
  for (const [name, doc] of Object.entries(e.params ?? {})) fields[name] = z.string().min(1).describe(doc);
  for (const [name, f] of Object.entries(e.query ?? {})) fields[name] = queryArg(f).describe(f.doc);
  if (e.body) {
    const body = await loadSchema(e.body);
    if (!(body instanceof z.ZodObject)) throw new Error(`${e.path}: its body ${e.body.name} is not an object`);
    Object.assign(fields, body.shape);
  }
  return fields;
}

/** The endpoint a row names; a name the table does not have is an error, not a tool without a call. */
export function toolEndpoint(row: Tool): Endpoint {
  const e = (ENDPOINTS as Record<string, Endpoint>)[row.endpoint];
  if (!e) throw new Error(`tool ${row.name}: the API table has no endpoint ${row.endpoint}`);
  return e;
}

/** The tool's fields that stand for its endpoint's: `[tool's name, endpoint's field, description]`. */
function mapped(row: Tool, fields: Record<string, z.ZodType>): [string, string, string | undefined][] {
  if (!row.input) return Object.keys(fields).map((f) => [f, f, undefined]);
  return Object.entries(row.input).map(([name, ref]) => {
    const { field, describe } = fieldRef(ref);
    return [name, field, describe];
  });
}

/** A tool's input: its schema, and which endpoint field each of its fields stands for (tool's name → field). */
interface ToolInput {
  readonly shape: Readonly<Record<string, z.ZodType>>;
  readonly fields: ReadonlyMap<string, string>;
}

/** A row's input: the endpoint's fields it names (under its names, with its descriptions), then its own. */
export async function toolInput(row: Tool): Promise<ToolInput> {
  const fields = await endpointFields(toolEndpoint(row));
  const shape: Record<string, z.ZodType> = {};
  const names = new Map<string, string>();
  for (const [name, field, describe] of mapped(row, fields)) {
    const s = fields[field];
    if (!s) throw new Error(`tool ${row.name}: ${row.endpoint} has no field ${field}`);
    shape[name] = describe === undefined ? s : s.describe(describe);
    names.set(name, field);
  }
  return { shape: { ...shape, ...row.own }, fields: names };
}

/** A plain row's call of its endpoint, from the tool's arguments: the path parameter (if any), then the query or body. */
export function callArgs(e: Endpoint, input: ToolInput, args: Record<string, unknown>): unknown[] {
  const values: Record<string, unknown> = {};
  for (const [name, field] of input.fields) values[field] = args[name];
  const out: unknown[] = [];
  const param = Object.keys(e.params ?? {})[0];
  if (param !== undefined) {
    out.push(values[param]);
    delete values[param];
  }
  if (e.query || e.body) out.push(values);
  return out;
}
