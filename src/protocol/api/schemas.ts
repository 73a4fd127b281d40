import type { z } from "zod";

/**
 * The protocol modules whose zod schemas the API table names, each loaded on first use: the
 * table itself holds no schema, so a client (`troupe answer`) reads it without loading zod.
 */
const SCHEMA_MODULES = {
  base: () => import("../api-base.ts"),
  agents: () => import("../api-agents.ts"),
  conversations: () => import("../api-conversations.ts"),
  messages: () => import("../api-messages.ts"),
  work: () => import("../api-work.ts"),
  gc: () => import("../api-gc.ts"),
  proposals: () => import("../proposals.ts"),
  profiles: () => import("../profile.ts"),
  flows: () => import("../flow.ts"),
  accounts: () => import("../account.ts"),
  hosts: () => import("../host.ts"),
  permissions: () => import("../permission.ts"),
  events: () => import("../events.ts"),
  reviews: () => import("../review.ts"),
  publish: () => import("../api-publish.ts"),
};

export type SchemaModules = { [M in keyof typeof SCHEMA_MODULES]: Awaited<ReturnType<(typeof SCHEMA_MODULES)[M]>> };

/** The exports of module `M` that are zod schemas. */
export type SchemaName<M extends keyof SchemaModules> = {
  [N in keyof SchemaModules[M]]: SchemaModules[M][N] extends z.ZodType ? N : never;
}[keyof SchemaModules[M]] &
  string;

/** A schema named by its module and export; `S` is its type, for the types derived from the table. */
export interface SchemaRef<S extends z.ZodType = z.ZodType> {
  readonly module: keyof SchemaModules;
  readonly name: string;
  /** Never set: carries the schema's type. */
  readonly type?: S;
}

export function schema<M extends keyof SchemaModules, N extends SchemaName<M>>(module: M, name: N): SchemaRef<Extract<SchemaModules[M][N], z.ZodType>> {
  return { module, name };
}

/** The schema itself (its module loaded once, then cached by the module system). */
export async function loadSchema<S extends z.ZodType>(ref: SchemaRef<S>): Promise<S> {
  const mod = (await SCHEMA_MODULES[ref.module]()) as unknown as Record<string, S>;
  const s = mod[ref.name];
  if (!s) throw new Error(`no schema ${ref.name} in the ${ref.module} protocol module`);
  return s;
}
