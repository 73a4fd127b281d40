import type { z } from "zod";

/** The fields of T that may be null. */
export type NullableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : never }[keyof T];

/**
 * Every field of an object schema that may be null, set to null: a fixture spreads it and writes
 * out only the rest, so a nullable field added to an entity touches no fixture (the type checker
 * still asks for every field that may not be null).
 */
export function nulls<S extends z.ZodObject>(schema: S): { [K in NullableKeys<z.output<S>>]: null } {
  return Object.fromEntries(Object.entries(schema.shape).flatMap(([k, f]) => ((f as z.ZodType).safeParse(null).success ? [[k, null]] : []))) as never;
}
