import { TroupeError } from "../../errors.ts";

/**
 * Query parameters, declared per endpoint without zod: the daemon reads them with `readQuery`,
 * the client writes them with `writeQuery`, and both follow the same declaration.
 *  - int: a whole number (`?wait=5000`); anything else is 400
 *  - flag: present or not (`?force`, whatever its value)
 *  - text: a string as given
 *  - list: comma-separated ids; `none` is the empty list
 */
type QueryKind = "int" | "flag" | "text" | "list";

export interface QueryField<K extends QueryKind = QueryKind> {
  readonly kind: K;
  /** What it means, for docs/api.md. */
  readonly doc: string;
  /** Its name in the URL when that is no identifier (`dry-run`); else the field's own name. */
  readonly wire?: string;
}

export type QuerySpec = Readonly<Record<string, QueryField>>;

export const query = {
  int: (doc: string): QueryField<"int"> => ({ kind: "int", doc }),
  flag: (doc: string, wire?: string): QueryField<"flag"> => ({ kind: "flag", doc, ...(wire && { wire }) }),
  text: (doc: string): QueryField<"text"> => ({ kind: "text", doc }),
  list: (doc: string): QueryField<"list"> => ({ kind: "list", doc }),
};

/** The value a field has once read: a flag is always known, the rest may be absent. */
export type QueryValue<F> =
  F extends QueryField<"int"> ? number | undefined : F extends QueryField<"flag"> ? boolean : F extends QueryField<"text"> ? string | undefined : F extends QueryField<"list"> ? string[] | undefined : never;

export type QueryValues<Q extends QuerySpec> = { -readonly [K in keyof Q]: QueryValue<Q[K]> };

const WHOLE = /^\d+$/;

/** The declared parameters of a request's query; an int that is not a whole number is `bad_request`. */
export function readQuery<Q extends QuerySpec>(spec: Q, params: URLSearchParams): QueryValues<Q> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(spec)) {
    const wire = f.wire ?? name;
    const v = params.get(wire);
    switch (f.kind) {
      case "flag":
        out[name] = v !== null;
        break;
      case "int":
        if (v !== null && !WHOLE.test(v)) throw new TroupeError("bad_request", `query parameter ${wire} must be a whole number`);
        out[name] = v === null ? undefined : Number(v);
        break;
      case "text":
        out[name] = v ?? undefined;
        break;
      case "list":
        out[name] = v === null ? undefined : v === "none" ? [] : v.split(",");
        break;
    }
  }
  return out as QueryValues<Q>;
}

/** `?a=1&flag` for the values given (flags only when true), or "" when none is. */
export function writeQuery(spec: QuerySpec, values: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const [name, f] of Object.entries(spec)) {
    const v = values[name];
    if (v === undefined || v === null || v === false) continue;
    const wire = encodeURIComponent(f.wire ?? name);
    if (f.kind === "flag") parts.push(wire);
    else if (f.kind === "list") parts.push(`${wire}=${(v as string[]).length ? (v as string[]).map(encodeURIComponent).join(",") : "none"}`);
    else parts.push(`${wire}=${encodeURIComponent(String(v))}`);
  }
  return parts.length ? `?${parts.join("&")}` : "";
}
