/**
 * src/protocol/api/reply-checks.ts from the zod schemas of the replies clients read on their hot
 * paths (the agents list the dashboard's first frame waits for, the agents' conversation replies,
 * `{ok}`, an error body, and the event stream's `agent:output`, one per piece of output of every
 * agent a dashboard follows, where zod's check was a few per cent of a core while one agent
 * streamed): a zod-free check per reply, as strict as its schema and giving the same
 * value (unknown keys dropped, fields in the schema's order), written as straight-line code that
 * reads each field by name. zod's own parse of 1,000 agents took 45-75 ms of CPU in a fresh process
 * (its checks run cold, once), this 7-10 ms; and a client that reads only these never loads zod.
 * The build writes the file (scripts/build.ts); tests/protocol/api/reply-checks.test.ts fails when
 * it is stale and holds each check to its schema, field by field and value by value.
 * Usage: npm run gen:checks   (writes src/protocol/api/reply-checks.ts)
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as apiAgents from "../src/protocol/api-agents.ts";
import * as apiBase from "../src/protocol/api-base.ts";
import * as apiConversations from "../src/protocol/api-conversations.ts";
import * as conversation from "../src/protocol/conversation.ts";
import * as entities from "../src/protocol/entities.ts";
import * as events from "../src/protocol/events.ts";
import * as failure from "../src/protocol/failure.ts";
import * as output from "../src/protocol/output.ts";

/** Each check: its export, and the schema it is generated from (module, export). */
const CHECKS = [
  { name: "AgentsReply", module: "api-agents", schema: "AgentsResponseSchema" },
  { name: "ConversationReply", module: "api-conversations", schema: "ConversationResponseSchema" },
  { name: "ListenReply", module: "api-conversations", schema: "ListenResponseSchema" },
  { name: "OkReply", module: "api-base", schema: "OkSchema" },
  { name: "ErrorReply", module: "api-base", schema: "ErrorBodySchema" },
  { name: "OutputChunkEvent", module: "events", schema: "OutputChunkEventSchema" },
] as const;

const MODULES: Record<string, Record<string, unknown>> = { "api-agents": apiAgents, "api-base": apiBase, "api-conversations": apiConversations, events };
/** Where object schemas get their readers' names (readAgent for AgentSchema); an unnamed one is named by where it sits. */
const NAMED: Record<string, unknown>[] = [entities, failure, conversation, output, events, apiAgents, apiConversations, apiBase];

export const OUTPUT = join(import.meta.dirname, "..", "src", "protocol", "api", "reply-checks.ts");

// zod 4's definitions, as far as these schemas use them
interface Def {
  type: string;
  shape?: Record<string, Schema>;
  catchall?: Schema;
  element?: Schema;
  innerType?: Schema;
  entries?: Record<string, string | number>;
  values?: unknown[];
  checks?: { _zod: { def: CheckDef } }[];
}
interface CheckDef {
  check: string;
  format?: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
}
interface Schema {
  _zod: { def: Def };
}

const def = (s: Schema): Def => s._zod.def;
const unsupported = (where: string, what: string): never => {
  throw new Error(`gen-reply-checks: ${where}: ${what} is not supported; add it to the generator or keep this reply on zod`);
};

/** A test of value `x` against a schema that holds no object or array, and its words for an error; null when it does. */
function leaf(s: Schema, x: string, where: string): { test: string; words: string } | null {
  const d = def(s);
  const checks = (d.checks ?? []).map((c) => c._zod.def);
  switch (d.type) {
    case "string": {
      let test = `typeof ${x} === "string"`;
      let words = "a string";
      for (const c of checks) {
        if (c.check !== "min_length") unsupported(where, `the string check ${c.check}`);
        test += ` && ${x}.length >= ${c.minimum}`;
        words = c.minimum === 1 ? "a non-empty string" : `a string of ${c.minimum} or more`;
      }
      return { test, words };
    }
    case "number": {
      let int = false;
      let bound = "";
      let test = "";
      for (const c of checks) {
        if (c.check === "number_format" && c.format === "safeint") int = true;
        else if (c.check === "greater_than") {
          test += ` && (${x} as number) ${c.inclusive ? ">=" : ">"} ${c.value}`;
          bound = c.value === 0 ? (c.inclusive ? "non-negative " : "positive ") : ` ${c.inclusive ? "from" : "over"} ${c.value}`;
        } else unsupported(where, `the number check ${c.check}${c.format ? ` ${c.format}` : ""}`);
      }
      const kind = int ? "integer" : "number";
      const words = bound.startsWith(" ") ? `a${int ? "n" : ""} ${kind}${bound}` : bound ? `a ${bound}${kind}` : `a${int ? "n" : ""} ${kind}`;
      return { test: `${int ? `Number.isSafeInteger(${x})` : `typeof ${x} === "number" && Number.isFinite(${x})`}${test}`, words };
    }
    case "boolean":
      return { test: `typeof ${x} === "boolean"`, words: "true or false" };
    case "enum": {
      const values = Object.values(d.entries!);
      return { test: `(${values.map((v) => `${x} === ${JSON.stringify(v)}`).join(" || ")})`, words: `one of ${values.join(", ")}` };
    }
    case "literal":
      return { test: `(${d.values!.map((v) => `${x} === ${JSON.stringify(v)}`).join(" || ")})`, words: d.values!.map((v) => JSON.stringify(v)).join(" or ") };
    case "nullable": {
      const inner = leaf(d.innerType!, x, where);
      return inner && { test: `(${x} === null || ${inner.test})`, words: `${inner.words}, or null` };
    }
    case "optional":
      return unsupported(where, "an optional value outside an object's field");
    case "object":
    case "array":
      return null;
    default:
      return unsupported(where, `a ${d.type} schema`);
  }
}

class Generator {
  private readonly functions: string[] = [];
  private readonly names = new Map<Schema, string>();

  constructor(private readonly exportNames: Map<unknown, string>) {}

  /** The reader function of an object or array schema, generated once; its name. */
  reader(s: Schema, hint: string): string {
    const known = this.names.get(s);
    if (known) return known;
    const named = this.exportNames.get(s);
    const name = `read${(named ?? hint).replace(/Schema$/, "")}`;
    this.names.set(s, name);
    const d = def(s);
    this.functions.push(d.type === "object" ? this.object(s, name) : this.array(s, name));
    return name;
  }

  source(): string {
    return this.functions.join("\n\n");
  }

  /** Statements that check `target` (a property of `o`, or an element) and replace it by what its reader returns. */
  private value(s: Schema, target: string, at: string, hint: string, where: string, inBlock = false): string[] {
    const test = leaf(s, target, where);
    if (test) return [`if (!(${test.test})) return \`${at}: expected ${test.words.replaceAll("`", "\\`")}\`;`];
    const d = def(s);
    if (d.type === "nullable") return [`if (${target} !== null) {`, ...this.value(d.innerType!, target, at, hint, where, true).map((l) => `  ${l}`), "}"];
    const read = this.reader(s, hint);
    const lines = [`const r = ${read}(${target}, \`${at}\`);`, `if (typeof r === "string") return r;`, `${target} = r;`];
    return inBlock ? lines : ["{", ...lines.map((l) => `  ${l}`), "}"];
  }

  private object(s: Schema, name: string): string {
    const d = def(s);
    if (d.catchall) unsupported(name, "an object that keeps or refuses unknown keys");
    const fields = Object.entries(d.shape!);
    const firstOptional = fields.findIndex(([, f]) => def(f).type === "optional");
    const inLiteral = firstOptional < 0 ? fields : fields.slice(0, firstOptional);
    const body: string[] = [
      `if (!isObject(v)) return \`\${at ? at + ": " : ""}expected an object\`;`,
      `const o: Record<string, unknown> = { ${inLiteral.map(([k]) => `${key(k)}: v${prop(k)}`).join(", ")} };`,
    ];
    for (const [k, f] of fields.slice(inLiteral.length)) {
      if (def(f).type === "optional") body.push(`if (v${prop(k)} !== undefined) o${prop(k)} = v${prop(k)};`);
      else body.push(`o${prop(k)} = v${prop(k)};`);
    }
    for (const [k, f] of fields) {
      const hint = `${name.slice(4)}${k[0]!.toUpperCase()}${k.slice(1)}`;
      const at = `\${at ? at + "." : ""}${k}`;
      if (def(f).type === "optional") {
        const inner = this.value(def(f).innerType!, `o${prop(k)}`, at, hint, `${name}.${k}`, true);
        body.push(`if (o${prop(k)} !== undefined) {`, ...inner.map((l) => `  ${l}`), "}");
      } else body.push(...this.value(f, `o${prop(k)}`, at, hint, `${name}.${k}`));
    }
    body.push("return o;");
    return [`function ${name}(v: unknown, at: string): Record<string, unknown> | string {`, ...body.map((l) => `  ${l}`), "}"].join("\n");
  }

  private array(s: Schema, name: string): string {
    const element = def(s).element!;
    const body = [
      `if (!Array.isArray(v)) return \`\${at ? at + ": " : ""}expected an array\`;`,
      "const out: unknown[] = v.slice();",
      "for (let i = 0; i < out.length; i++) {",
      ...this.value(element, "out[i]", "${at}.${i}", `${name.slice(4)}Item`, `${name}[]`, true).map((l) => `  ${l}`),
      "}",
      "return out;",
    ];
    return [`function ${name}(v: unknown, at: string): unknown[] | string {`, ...body.map((l) => `  ${l}`), "}"].join("\n");
  }
}

const IDENT = /^[A-Za-z_$][\w$]*$/;
const key = (k: string) => (IDENT.test(k) ? k : JSON.stringify(k));
const prop = (k: string) => (IDENT.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`);

export function renderReplyChecks(): string {
  const exportNames = new Map<unknown, string>();
  for (const mod of NAMED) for (const [n, v] of Object.entries(mod)) if (n.endsWith("Schema") && !exportNames.has(v)) exportNames.set(v, n);
  const gen = new Generator(exportNames);
  const exports = CHECKS.map((c) => {
    const s = MODULES[c.module]![c.schema] as Schema | undefined;
    if (!s) throw new Error(`gen-reply-checks: no ${c.schema} in src/protocol/${c.module}.ts`);
    const read = gen.reader(s, c.schema);
    return `/** ${c.schema} (src/protocol/${c.module}.ts). */\nexport const ${c.name}: ReplyCheck<z.output<typeof ${c.schema}>> = check((v) => ${read}(v, "") as z.output<typeof ${c.schema}> | string);`;
  });
  const imports = [...new Set(CHECKS.map((c) => c.module))].map(
    (m) => `import type { ${CHECKS.filter((c) => c.module === m).map((c) => c.schema).join(", ")} } from "../${m}.ts";`,
  );
  return [
    "// Generated by scripts/gen-reply-checks.ts from the zod schemas named below: do not edit (`npm run gen:checks`;",
    "// the build writes it too). tests/protocol/api/reply-checks.test.ts fails when it is stale.",
    'import type { z } from "zod";',
    ...imports,
    'import { check, isObject, type ReplyCheck } from "./replies.ts";',
    "",
    gen.source(),
    "",
    exports.join("\n\n"),
    "",
  ].join("\n");
}

/** Writes the file when it changed; whether it did. */
export function writeReplyChecks(): boolean {
  const text = renderReplyChecks();
  let old = "";
  try {
    old = readFileSync(OUTPUT, "utf8");
  } catch {}
  if (old === text) return false;
  writeFileSync(OUTPUT, text);
  return true;
}

if (import.meta.main) process.stdout.write(writeReplyChecks() ? `wrote ${OUTPUT}\n` : `${OUTPUT} is up to date\n`);
