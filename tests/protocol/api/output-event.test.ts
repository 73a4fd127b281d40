import { expect, test } from "bun:test";
import { readOutputEvent } from "../../../src/protocol/api/output-event.ts";
import { DaemonEventSchema } from "../../../src/protocol/events.ts";

// The hand-written check of `agent:output` must accept exactly what DaemonEventSchema accepts of
// that type, and give the same value (unknown keys dropped).

const chunk = { id: 7, agentId: "ag_1", session: 2, stream: "stdout", data: "a\nb\n", createdAt: 1_700_000_000_000 };
const valid = { type: "agent:output", chunk };

const zod = (v: unknown) => {
  const r = DaemonEventSchema.safeParse(v);
  return r.success ? r.data : null;
};

const variants: [string, unknown][] = [
  ["valid", valid],
  ["stderr", { ...valid, chunk: { ...chunk, stream: "stderr" } }],
  ["troupe's note", { ...valid, chunk: { ...chunk, stream: "troupe" } }],
  ["empty data", { ...valid, chunk: { ...chunk, data: "" } }],
  ["extra keys", { ...valid, extra: 1, chunk: { ...chunk, more: "x" } }],
  ["another type", { type: "agent:removed", agentId: "ag_1" }],
  ["no chunk", { type: "agent:output" }],
  ["chunk null", { type: "agent:output", chunk: null }],
  ["chunk an array", { type: "agent:output", chunk: [] }],
  ["not an object", "agent:output"],
  ["null", null],
  ["an unknown stream", { ...valid, chunk: { ...chunk, stream: "stdin" } }],
];
for (const key of Object.keys(chunk) as (keyof typeof chunk)[]) {
  const { [key]: _, ...without } = chunk;
  variants.push([`without ${key}`, { ...valid, chunk: without }]);
  for (const bad of [null, "1", 1.5, -1, 2 ** 53, Number.NaN, true, {}, []]) variants.push([`${key} = ${JSON.stringify(bad)}`, { ...valid, chunk: { ...chunk, [key]: bad } }]);
}

test.each(variants)("%s: the same as the schema", (_name, v) => {
  const want = zod(v);
  const got = readOutputEvent(v);
  if (want === null || (want as { type: string }).type !== "agent:output") expect(got).toBeNull();
  else expect(got).toEqual(want as never);
});
