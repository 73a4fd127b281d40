/** Output lines no CLI should print, and some it might: what a parser must survive. */

const MiB = 1024 * 1024;

/** Lines that are not JSON objects: each must come back as at least one event, never dropped. */
export const NOT_JSON_OBJECTS: readonly string[] = [
  "",
  " ",
  "\t",
  "not json",
  "{",
  '{"type":',
  "[1,2]",
  "[]",
  "42",
  "null",
  '"just a string"',
  "\u0000\u001b[31mred\u001b[0m\r",
  // What invalid UTF-8 decodes to: replacement characters, and a lone surrogate from a bad join.
  "\uFFFD\uFFFD\uFFFD",
  "\ud800 half a pair",
  "x".repeat(8 * MiB),
  "[".repeat(200_000),
];

/** JSON objects of shapes no CLI documents: each must parse to valid events or none, never throw. */
export const WRONG_SHAPES: readonly string[] = [
  "{}",
  '{"type":null}',
  '{"type":1}',
  '{"type":{}}',
  '{"type":["assistant"]}',
  `{"type":"result","result":"${"y".repeat(2 * MiB)}"}`,
  `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
];

const REPLACEMENTS: readonly unknown[] = [null, 0, -1, "", "x", true, [], {}, [null], [{}], { type: "text" }];

/**
 * Every variant of a JSON line with one field (up to three levels deep, arrays through their
 * first element) replaced by a value of another type: the lines a newer or broken CLI prints.
 */
export function mutations(line: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [];
  }
  const out: string[] = [];
  const walk = (node: unknown, set: (v: unknown) => unknown, depth: number) => {
    if (depth > 3 || typeof node !== "object" || node === null) return;
    const keys = Array.isArray(node) ? (node.length ? [0] : []) : Object.keys(node);
    for (const key of keys) {
      const child = (node as Record<string | number, unknown>)[key];
      const replace = (v: unknown) => set(Array.isArray(node) ? node.map((c, i) => (i === key ? v : c)) : { ...node, [key]: v });
      for (const r of REPLACEMENTS) out.push(JSON.stringify(replace(r)));
      walk(child, replace, depth + 1);
    }
  };
  walk(value, (v) => v, 0);
  return out;
}
