/**
 * docs/api.md from the API table (src/protocol/api/): every endpoint with who may call it, its
 * parameters, query, body and reply, and the entities replies hold. tests/protocol/api/docs.test.ts
 * fails when the file is stale.
 * Usage: npm run docs:api   (writes docs/api.md)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { RESOURCES, RULES, loadSchema, type Endpoint } from "../src/protocol/api/index.ts";
import { AccountSchema } from "../src/protocol/account.ts";
import { AttachmentSchema } from "../src/protocol/api-agents.ts";
import { GcReportSchema } from "../src/protocol/api-gc.ts";
import { ConversationSchema } from "../src/protocol/conversation.ts";
import { AgentSchema } from "../src/protocol/entities.ts";
import { FlowSchema } from "../src/protocol/flow.ts";
import { MessageSchema } from "../src/protocol/message.ts";
import { OutputChunkSchema } from "../src/protocol/output.ts";
import { PermissionRequestSchema } from "../src/protocol/permission.ts";
import { ProfileSchema } from "../src/protocol/profile.ts";
import { DiffLineSchema, ReviewCommentSchema } from "../src/protocol/review.ts";
import { DecisionSchema } from "../src/protocol/proposals.ts";
import { InitiativeSchema, PhaseSchema, PhaseTreeSchema, TaskSchema } from "../src/protocol/work.ts";

/** Entities named in replies (and written out once, at the end) instead of inlined everywhere. */
const ENTITIES: [string, z.ZodType][] = [
  ["Agent", AgentSchema],
  ["Attachment", AttachmentSchema],
  ["OutputChunk", OutputChunkSchema],
  ["Conversation", ConversationSchema],
  ["Message", MessageSchema],
  ["DiffLine", DiffLineSchema],
  ["ReviewComment", ReviewCommentSchema],
  ["Initiative", InitiativeSchema],
  ["Phase", PhaseSchema],
  ["Task", TaskSchema],
  ["PhaseTree", PhaseTreeSchema],
  ["Decision", DecisionSchema],
  ["PermissionRequest", PermissionRequestSchema],
  ["Profile", ProfileSchema],
  ["Flow", FlowSchema],
  ["Account", AccountSchema],
  ["GcReport", GcReportSchema],
];

type Json = { [k: string]: unknown };

const TITLES: Record<keyof typeof RESOURCES, string> = {
  daemon: "Daemon",
  agents: "Agents",
  conversations: "Conversations",
  messages: "Messages",
  reviews: "Reviews",
  publish: "Pushes and pull requests",
  events: "Events",
  initiatives: "Initiatives, phases and tasks",
  modes: "Mode agents",
  permissions: "Tool permissions",
  profiles: "Profiles",
  flows: "Flows",
  accounts: "Accounts",
  hosts: "Hosts (the pool)",
};

/** A JSON Schema as a compact TypeScript-like type. */
function typeOf(s: Json): string {
  if (typeof s.$ref === "string") return s.$ref.replace("#/$defs/", "");
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) return ((s.anyOf ?? s.oneOf) as Json[]).map(typeOf).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (Array.isArray(s.type)) return (s.type as string[]).map((t) => typeOf({ ...s, type: t })).join(" | ");
  switch (s.type) {
    case "string":
    case "boolean":
    case "null":
      return s.type;
    case "number":
      return "number";
    case "integer":
      return "int";
    case "array":
      return s.items ? `${wrap(typeOf(s.items as Json))}[]` : "unknown[]";
    case "object":
      return objectOf(s);
  }
  return "unknown";
}

/** A union in parentheses (one whose ` | ` is not inside braces). */
function wrap(t: string): string {
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === "{" || t[i] === "(") depth++;
    else if (t[i] === "}" || t[i] === ")") depth--;
    else if (depth === 0 && t.startsWith(" | ", i)) return `(${t})`;
  }
  return t;
}

function objectOf(s: Json): string {
  const props = Object.entries((s.properties ?? {}) as Record<string, Json>);
  const required = new Set((s.required ?? []) as string[]);
  if (props.length === 0) return s.additionalProperties && typeof s.additionalProperties === "object" ? `{[key: string]: ${typeOf(s.additionalProperties as Json)}}` : "{}";
  return `{${props.map(([k, v]) => `${k}${required.has(k) ? "" : "?"}: ${typeOf(v)}`).join(", ")}}`;
}

/** The schema as JSON Schema, the entities referenced by name; `input`: as a client sends it (defaults optional). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): Json {
  const metadata = z.registry<{ id: string }>();
  for (const [id, entity] of ENTITIES) if (entity !== schema) metadata.add(entity, { id });
  return z.toJSONSchema(schema, { metadata, io, unrepresentable: "any", reused: "inline" }) as Json;
}

/** An object's fields, one a line (a body as a client sends it, an entity as the daemon does). */
function fieldsOf(schema: z.ZodType, io: "input" | "output" = "input"): string[] {
  const s = jsonSchema(schema, io);
  const variants = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (variants) return variants.map((v) => `  - one of: \`${typeOf(v)}\``);
  const required = new Set((s.required ?? []) as string[]);
  return Object.entries((s.properties ?? {}) as Record<string, Json>).map(([k, v]) => `  - \`${k}\`${required.has(k) ? "" : " (optional)"}: \`${typeOf(v)}\``);
}

async function endpointDoc(name: string, e: Endpoint): Promise<string[]> {
  const out = [`### \`${e.method} ${e.path}\``, "", e.summary, ""];
  out.push(`- **name**: \`${name}\` (the client's method and the service's handler)`);
  out.push(`- **who**: ${e.rule}: ${RULES[e.rule]}`);
  if (e.anyBuild) out.push("- **any build**: answered whatever the client's build (others are 409 on a build mismatch)");
  if (e.callerEnv) out.push("- **caller's environment**: the body's `env`; through `troupe proxy` (a remote) the host's own replaces it");
  for (const [field, f] of Object.entries(e.fields ?? {})) out.push(`- **who may set \`${field}\`**: ${f.rule}: ${RULES[f.rule]}`);
  for (const [p, doc] of Object.entries(e.params ?? {})) out.push(`- **\`:${p}\`**: ${doc}`);
  for (const [q, f] of Object.entries(e.query ?? {})) out.push(`- **\`?${f.wire ?? q}\`** (${f.kind}): ${f.doc}`);
  if (e.body) out.push("- **body**:", ...fieldsOf(await loadSchema(e.body)));
  const status = e.status ?? 200;
  const { reply } = e;
  if (reply.kind === "ok") out.push(`- **reply** (${status}): \`{ok: true}\``);
  else if (reply.kind === "stream") out.push(`- **reply** (${status}): \`text/event-stream\`, each event's \`data\` one \`DaemonEvent\` (src/protocol/events.ts), its \`event\` the type`);
  else out.push(`- **reply** (${status}): \`${typeOf(jsonSchema(await loadSchema(reply.schema), "output"))}\``);
  return [...out, ""];
}

/** The whole of docs/api.md. */
export async function renderApiDocs(): Promise<string> {
  const out = [
    "# The troupe API",
    "",
    "<!-- generated from src/protocol/api/ by `npm run docs:api`: do not edit by hand -->",
    "",
    "The workspace daemon serves HTTP/1.1 on its Unix socket (`troupe daemon status --json` names it).",
    "Bodies and replies are JSON; a failure is `{error: {code, message}}` with a 4xx or 5xx status.",
    "A request with `Authorization: Bearer <token>` (an agent's `TROUPE_AGENT_TOKEN`) is that agent,",
    "one without is the person; a forged token is 401. Each endpoint's rule is checked before its body",
    "is read: a refusal is 403 whatever the body held. See [security.md](security.md).",
    "",
    "| rule | who |",
    "|---|---|",
    ...Object.entries(RULES).map(([rule, who]) => `| ${rule} | ${who} |`),
    "",
  ];
  for (const [resource, endpoints] of Object.entries(RESOURCES) as [keyof typeof RESOURCES, Record<string, Endpoint>][]) {
    out.push(`## ${TITLES[resource]}`, "");
    for (const [name, e] of Object.entries(endpoints)) out.push(...(await endpointDoc(name, e)));
  }
  out.push("## Entities", "");
  for (const [id, entity] of ENTITIES) out.push(`### ${id}`, "", ...fieldsOf(entity, "output").map((l) => l.slice(2)), "");
  return `${out.join("\n").trimEnd()}\n`;
}

if (import.meta.main) {
  const path = join(import.meta.dirname, "..", "docs", "api.md");
  writeFileSync(path, await renderApiDocs());
  console.log(`wrote ${path}`);
}
