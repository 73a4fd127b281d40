/**
 * What a reply is checked with: a zod schema, or a zod-free check generated from one
 * (reply-checks.ts, for the replies read on hot paths: the dashboard's agents list, the agents'
 * conversation commands, the event stream's `agent:output`). Loading zod and building the conversation schemas was ~6 ms of a ~15 ms
 * `troupe answer`; the generated checks cost nothing to load.
 */
export interface ReplyCheck<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A reader (the value, or why not) as a ReplyCheck. */
export function check<T>(read: (v: unknown) => T | string): ReplyCheck<T> {
  return {
    safeParse(value) {
      const r = read(value);
      return typeof r === "string" ? { success: false, error: { issues: [{ message: r }] } } : { success: true, data: r };
    },
  };
}
