import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { OUTPUT, renderReplyChecks } from "../../../scripts/gen-reply-checks.ts";
import { AgentsReply, ConversationReply, ErrorReply, ListenReply, OkReply, OutputChunkEvent } from "../../../src/protocol/api/reply-checks.ts";
import { DaemonEventSchema } from "../../../src/protocol/events.ts";
import { AgentsResponseSchema } from "../../../src/protocol/api-agents.ts";
import { ErrorBodySchema, OkSchema } from "../../../src/protocol/api-base.ts";
import { ConversationResponseSchema, ListenResponseSchema } from "../../../src/protocol/api-conversations.ts";
import { ConversationSchema } from "../../../src/protocol/conversation.ts";
import { AgentSchema, QuestionSchema } from "../../../src/protocol/entities.ts";
import { FailureSchema } from "../../../src/protocol/failure.ts";
import { ENDPOINTS } from "../../../src/protocol/api/index.ts";
import { nulls } from "../../support/nulls.ts";

// The generated checks must accept exactly what their zod schemas accept, and give the same value.

test("reply-checks.ts is what the schemas say (else: npm run gen:checks)", () => {
  expect(readFileSync(OUTPUT, "utf8")).toBe(renderReplyChecks());
});


// a value for every field that may not be null, and a few of those that may
const agent = {
  ...nulls(AgentSchema),
  id: "ag_1",
  name: "brave-otter",
  provider: "claude",
  status: "waiting",
  prompt: "fix it",
  model: "opus",
  permissions: "skip",
  cwd: "/w",
  worktree: "/w/.troupe/wt/x",
  branch: "troupe/x",
  baseRef: "main",
  pid: 42,
  session: 1,
  questions: [{ id: "q1", question: "ready?" }],
  costUsd: 0.25,
  inputTokens: 10,
  mode: "plan",
  initiativeId: "in_1",
  createdAt: 1700000000000,
  updatedAt: 1700000000001,
  parentId: "ag_0",
  uncommitted: false,
  failure: { class: "usage_limit", evidence: "quota", attempt: 2, resetsAt: 1700000000500 },
  retryAt: 1700000000600,
  attempt: 2,
  accountId: "ac_1",
  pendingPermissions: 0,
  ports: [3000, 3001],
};

// every kind of wrong value a JSON reply can hold, and a few right ones
const VALUES: unknown[] = [undefined, null, "", "x", "running", "skip", "plan", "crash", 0, 1, 1.5, -3, 2 ** 60, true, [], {}, ["x"], [{ id: "q", question: "?" }], [{ id: "", question: "?" }]];

function same(reply: unknown, label: unknown): void {
  const zod = AgentsResponseSchema.safeParse(reply);
  const mine = AgentsReply.safeParse(reply);
  expect({ label, ok: mine.success }).toEqual({ label, ok: zod.success });
  // toStrictEqual: the same keys, in the same order, none undefined that zod leaves out
  if (zod.success && mine.success) {
    expect(mine.data).toStrictEqual(zod.data);
    expect(mine.data.agents.map((a) => Object.keys(a))).toEqual(zod.data.agents.map((a) => Object.keys(a)));
  }
}

test("the agents check agrees with AgentSchema on every field, for every value", () => {
  expect(AgentsResponseSchema.safeParse({ agents: [agent] }).success).toBe(true);
  let compared = 0;
  for (const key of Object.keys(AgentSchema.shape)) {
    for (const value of VALUES) {
      const changed: Record<string, unknown> = { ...agent, [key]: value };
      if (value === undefined) delete changed[key];
      same({ agents: [agent, changed] }, { key, value });
      compared++;
    }
  }
  expect(compared).toBe(Object.keys(AgentSchema.shape).length * VALUES.length);
});

test("questions and a failure, field by field", () => {
  for (const key of Object.keys(QuestionSchema.shape)) {
    for (const value of VALUES) {
      const q: Record<string, unknown> = { id: "q1", question: "ready?", [key]: value };
      if (value === undefined) delete q[key];
      same({ agents: [{ ...agent, questions: [q, { id: "q2", question: "and?", extra: 1 }] }] }, { question: key, value });
    }
  }
  for (const key of Object.keys(FailureSchema.shape)) {
    for (const value of VALUES) {
      const f: Record<string, unknown> = { class: "crash", evidence: "boom", attempt: 1, [key]: value };
      if (value === undefined) delete f[key];
      same({ agents: [{ ...agent, failure: f }] }, { failure: key, value });
    }
  }
});

test("unknown keys are dropped as zod drops them; odd lists and bodies", () => {
  same({ agents: [{ ...agent, extra: 1, failure: { ...agent.failure, more: 2 } }], other: true }, "extra keys");
  for (const r of [{ agents: [] }, { agents: null }, { agents: {} }, { agents: [null] }, { agents: [agent, 1] }, {}, null, [], "x", { agents: [{ ...agent, questions: "x" }] }]) same(r, r);
});

test("the agents list and the conversation replies are read with them", () => {
  const check = (e: (typeof ENDPOINTS)[keyof typeof ENDPOINTS]) => e.reply.kind === "json" && e.reply.check;
  expect(check(ENDPOINTS.listAgents)).toBe(AgentsReply);
  expect(check(ENDPOINTS.listen)).toBe(ListenReply);
});

const conversation = {
  id: "cv_1",
  fromId: "user",
  fromName: "user",
  toId: "ag_1",
  toName: "brave-otter",
  question: "ready?",
  answer: null,
  answeredBy: null,
  status: "pending",
  taskId: null,
  phaseId: "ph_1",
  createdAt: 1700000000000,
  expiresAt: null,
  answeredAt: 1700000000001,
};

const CONVERSATION_VALUES: unknown[] = [undefined, null, "", "x", "answered", 0, 1.5, -3, 2 ** 60, true, [], {}, ["x"]];

test("the conversation check agrees with ConversationSchema on every field, for every value", () => {
  const keys = Object.keys(ConversationSchema.shape);
  let compared = 0;
  for (const key of keys) {
    for (const value of CONVERSATION_VALUES) {
      const conv: Record<string, unknown> = { ...conversation, [key]: value };
      if (value === undefined) delete conv[key];
      const reply = { conversation: conv };
      const zod = ConversationResponseSchema.safeParse(reply);
      const mine = ConversationReply.safeParse(reply);
      expect({ key, value, ok: mine.success }).toEqual({ key, value, ok: zod.success });
      if (zod.success && mine.success) expect(mine.data).toEqual(zod.data);
      compared++;
    }
  }
  expect(compared).toBe(keys.length * CONVERSATION_VALUES.length);
});

test("unknown keys are dropped as zod drops them; a listen may answer null", () => {
  const reply = { conversation: { ...conversation, extra: 1 }, more: true };
  expect(ConversationReply.safeParse(reply)).toEqual(ConversationResponseSchema.safeParse(reply) as never);
  for (const r of [{ conversation: null }, { conversation }, {}, { conversation: { ...conversation, status: "gone" } }, null, [], "x"]) {
    expect(ListenReply.safeParse(r).success).toBe(ListenResponseSchema.safeParse(r).success);
    expect(ConversationReply.safeParse(r).success).toBe(ConversationResponseSchema.safeParse(r).success);
  }
});

test("ok and error bodies", () => {
  for (const r of [{ ok: true }, { ok: false }, { ok: "true" }, {}, null, { ok: true, extra: 1 }]) {
    expect(OkReply.safeParse(r).success).toBe(OkSchema.safeParse(r).success);
  }
  const bodies = [{ error: { code: "x", message: "y" } }, { error: { code: "x" } }, { error: { code: 1, message: "y" } }, { error: "x" }, {}, null, { error: { code: "a", message: "b", extra: 1 } }];
  for (const r of bodies) {
    const zod = ErrorBodySchema.safeParse(r);
    const mine = ErrorReply.safeParse(r);
    expect(mine.success).toBe(zod.success);
    if (zod.success && mine.success) expect(mine.data).toEqual(zod.data);
  }
});

// The event stream's `agent:output`: accepted exactly where DaemonEventSchema accepts an event of
// that type, with the same value (unknown keys dropped); any other event is the schema's.
const chunk = { id: 7, agentId: "ag_1", session: 2, stream: "stdout", data: "a\nb\n", createdAt: 1_700_000_000_000 };
const output = { type: "agent:output", chunk };
const outputVariants: [string, unknown][] = [
  ["valid", output],
  ["stderr", { ...output, chunk: { ...chunk, stream: "stderr" } }],
  ["troupe's note", { ...output, chunk: { ...chunk, stream: "troupe" } }],
  ["empty data", { ...output, chunk: { ...chunk, data: "" } }],
  ["extra keys", { ...output, extra: 1, chunk: { ...chunk, more: "x" } }],
  ["another type", { type: "agent:removed", agentId: "ag_1" }],
  ["no chunk", { type: "agent:output" }],
  ["chunk null", { type: "agent:output", chunk: null }],
  ["chunk an array", { type: "agent:output", chunk: [] }],
  ["not an object", "agent:output"],
  ["null", null],
  ["an unknown stream", { ...output, chunk: { ...chunk, stream: "stdin" } }],
];
for (const key of Object.keys(chunk) as (keyof typeof chunk)[]) {
  const { [key]: _, ...without } = chunk;
  outputVariants.push([`without ${key}`, { ...output, chunk: without }]);
  for (const bad of [null, "1", 1.5, -1, 2 ** 53, Number.NaN, true, {}, []]) outputVariants.push([`${key} = ${JSON.stringify(bad)}`, { ...output, chunk: { ...chunk, [key]: bad } }]);
}

test.each(outputVariants)("agent:output, %s: the same as the event schema", (_name, v) => {
  const zod = DaemonEventSchema.safeParse(v);
  const mine = OutputChunkEvent.safeParse(v);
  const want = zod.success && zod.data.type === "agent:output" ? zod.data : null;
  expect(mine.success).toBe(want !== null);
  if (mine.success) expect(mine.data).toStrictEqual(want as never);
});
