import { expect, test } from "bun:test";
import { AGENT_MODES, AgentsReply, FAILURE_CLASSES } from "../../../src/protocol/api/agent-reply.ts";
import { AgentsResponseSchema } from "../../../src/protocol/api-agents.ts";
import { AgentSchema, QuestionSchema } from "../../../src/protocol/entities.ts";
import { FailureClassSchema, FailureSchema } from "../../../src/protocol/failure.ts";
import { AgentModeSchema } from "../../../src/protocol/work.ts";
import { ENDPOINTS } from "../../../src/protocol/api/index.ts";

// The hand-written check of the agents list must accept exactly what AgentsResponseSchema accepts, and give the same value.

const valid = {
  id: "ag_1",
  name: "brave-otter",
  provider: "claude",
  status: "waiting",
  prompt: "fix it",
  command: null,
  model: "opus",
  permissions: "skip",
  cwd: "/w",
  worktree: "/w/.troupe/wt/x",
  branch: "troupe/x",
  baseRef: "main",
  pid: 42,
  session: 1,
  providerSessionId: null,
  result: null,
  error: null,
  questions: [{ id: "q1", question: "ready?" }],
  exitCode: null,
  costUsd: 0.25,
  inputTokens: 10,
  outputTokens: null,
  mode: "plan",
  initiativeId: "in_1",
  taskId: null,
  phaseId: null,
  createdAt: 1700000000000,
  updatedAt: 1700000000001,
  lastActivityAt: null,
  parentId: "ag_0",
  uncommitted: false,
  failure: { class: "usage_limit", evidence: "quota", attempt: 2, resetsAt: 1700000000500 },
  retryAt: 1700000000600,
  attempt: 2,
  budgetUsd: null,
  accountId: "ac_1",
  pendingPermissions: 0,
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

test("the enums copied here are the schemas' own", () => {
  expect([...AGENT_MODES]).toEqual(AgentModeSchema.options);
  expect([...FAILURE_CLASSES]).toEqual(FailureClassSchema.options);
});

test("the agents check agrees with AgentSchema on every field, for every value", () => {
  expect(AgentsResponseSchema.safeParse({ agents: [valid] }).success).toBe(true);
  let compared = 0;
  for (const key of Object.keys(AgentSchema.shape)) {
    for (const value of VALUES) {
      const agent: Record<string, unknown> = { ...valid, [key]: value };
      if (value === undefined) delete agent[key];
      same({ agents: [valid, agent] }, { key, value });
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
      same({ agents: [{ ...valid, questions: [q, { id: "q2", question: "and?", extra: 1 }] }] }, { question: key, value });
    }
  }
  for (const key of Object.keys(FailureSchema.shape)) {
    for (const value of VALUES) {
      const f: Record<string, unknown> = { class: "crash", evidence: "boom", attempt: 1, [key]: value };
      if (value === undefined) delete f[key];
      same({ agents: [{ ...valid, failure: f }] }, { failure: key, value });
    }
  }
});

test("unknown keys are dropped as zod drops them; odd lists and bodies", () => {
  same({ agents: [{ ...valid, extra: 1, failure: { ...valid.failure, more: 2 } }], other: true }, "extra keys");
  for (const r of [{ agents: [] }, { agents: null }, { agents: {} }, { agents: [null] }, { agents: [valid, 1] }, {}, null, [], "x", { agents: [{ ...valid, questions: "x" }] }]) same(r, r);
});

test("the agents list is read with it", () => {
  const e = ENDPOINTS.listAgents;
  expect(e.reply.kind === "json" && e.reply.check).toBe(AgentsReply);
});
