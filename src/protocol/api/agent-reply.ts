import type { Agent, Question } from "../entities.ts";
import type { Failure } from "../failure.ts";
import { AGENT_STATUSES } from "../status.ts";
import { PERMISSION_MODES } from "../permission-modes.ts";
import { check, isObject } from "./replies.ts";

/**
 * A hand-written check of `GET /v1/agents` (`{agents}`), as strict as AgentsResponseSchema
 * (tests/protocol/api/agent-reply.test.ts holds it against the schema, field by field). The
 * dashboard's first frame waits for this list: zod took 45-75 ms of CPU over 1,000 agents in a
 * fresh process (its checks run cold, once), this 7-10 ms (1.5-3 ms warm).
 */

/** The lists of the zod enums this module cannot import (they live beside zod); the test holds them equal. */
export const AGENT_MODES = ["discuss", "plan", "detail", "execute", "refine"] as const;
export const FAILURE_CLASSES = ["auth", "usage_limit", "rate_limit", "overloaded", "network", "timeout", "crash", "interrupted", "missing_signal", "bad_output", "budget", "setup", "unknown"] as const;

type Rule = (v: unknown) => boolean;

const string: Rule = (v) => typeof v === "string";
const nonEmpty: Rule = (v) => typeof v === "string" && v.length > 0;
const number: Rule = (v) => typeof v === "number" && Number.isFinite(v);
const int: Rule = (v) => Number.isSafeInteger(v);
const positive: Rule = (v) => Number.isSafeInteger(v) && (v as number) > 0;
const boolean: Rule = (v) => typeof v === "boolean";
const oneOf = (values: readonly string[]): Rule => {
  const set = new Set(values);
  return (v) => typeof v === "string" && set.has(v);
};
const nullable =
  (rule: Rule): Rule =>
  (v) =>
    v === null || rule(v);

/** An object with exactly the fields of `rules` (unknown keys dropped, as zod drops them); `optional` may be absent. */
function object<T>(rules: Record<string, Rule>, optional: ReadonlySet<string> = new Set()): (v: unknown, at: string) => T | string {
  const entries = Object.entries(rules);
  return (v, at) => {
    if (!isObject(v)) return `${at}: expected an object`;
    const out: Record<string, unknown> = {};
    for (const [key, rule] of entries) {
      const value = v[key];
      if (value === undefined && optional.has(key)) continue;
      if (!rule(value)) return `${at}.${key}: invalid value`;
      out[key] = value;
    }
    return out as T;
  };
}

const QUESTION: Record<keyof Question, Rule> = { id: nonEmpty, question: nonEmpty };
const question = object<Question>(QUESTION);

const FAILURE: Record<keyof Failure, Rule> = { class: oneOf(FAILURE_CLASSES), evidence: string, attempt: positive, resetsAt: int, maxAttempts: positive };
const failure = object<Failure>(FAILURE, new Set(["resetsAt", "maxAttempts"]));

function questions(v: unknown, at: string): Question[] | null | string {
  if (v === null) return null;
  if (!Array.isArray(v)) return `${at}: expected an array or null`;
  const out: Question[] = [];
  for (let i = 0; i < v.length; i++) {
    const q = question(v[i], `${at}.${i}`);
    if (typeof q === "string") return q;
    out.push(q);
  }
  return out;
}

// Every key of Agent is listed (the type checker holds it), each with its schema's rule; the two
// nested ones are read by `agent` below.
const AGENT: Record<Exclude<keyof Agent, "questions" | "failure">, Rule> = {
  id: string,
  name: string,
  provider: string,
  status: oneOf(AGENT_STATUSES),
  prompt: nullable(string),
  command: nullable(string),
  model: nullable(string),
  permissions: oneOf(PERMISSION_MODES),
  cwd: string,
  worktree: nullable(string),
  branch: nullable(string),
  baseRef: nullable(string),
  pid: nullable(int),
  session: int,
  providerSessionId: nullable(string),
  result: nullable(string),
  error: nullable(string),
  exitCode: nullable(int),
  costUsd: nullable(number),
  inputTokens: nullable(int),
  outputTokens: nullable(int),
  mode: nullable(oneOf(AGENT_MODES)),
  initiativeId: nullable(string),
  taskId: nullable(string),
  phaseId: nullable(string),
  createdAt: int,
  updatedAt: int,
  lastActivityAt: nullable(int),
  parentId: nullable(string),
  uncommitted: boolean,
  retryAt: nullable(int),
  attempt: positive,
  budgetUsd: nullable(number),
  accountId: nullable(string),
  pendingPermissions: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
};
const FLAT = Object.entries(AGENT);

/**
 * The agent's fields, read by name in the schema's order (the order zod's output keeps): one shape
 * for every agent, where a loop over the names made each read and write a lookup by key (~7 µs an
 * agent, most of the check).
 */
const copy = (v: Record<string, unknown>): Record<keyof Agent, unknown> => ({
  id: v.id,
  name: v.name,
  provider: v.provider,
  status: v.status,
  prompt: v.prompt,
  command: v.command,
  model: v.model,
  permissions: v.permissions,
  cwd: v.cwd,
  worktree: v.worktree,
  branch: v.branch,
  baseRef: v.baseRef,
  pid: v.pid,
  session: v.session,
  providerSessionId: v.providerSessionId,
  result: v.result,
  error: v.error,
  questions: v.questions,
  exitCode: v.exitCode,
  costUsd: v.costUsd,
  inputTokens: v.inputTokens,
  outputTokens: v.outputTokens,
  mode: v.mode,
  initiativeId: v.initiativeId,
  taskId: v.taskId,
  phaseId: v.phaseId,
  createdAt: v.createdAt,
  updatedAt: v.updatedAt,
  lastActivityAt: v.lastActivityAt,
  parentId: v.parentId,
  uncommitted: v.uncommitted,
  failure: v.failure,
  retryAt: v.retryAt,
  attempt: v.attempt,
  budgetUsd: v.budgetUsd,
  accountId: v.accountId,
  pendingPermissions: v.pendingPermissions,
});

/** Every flat field of `a` by its rule, each read by name (the same rules as AGENT, which names the one that fails). */
const fits = (a: Record<keyof Agent, unknown>): boolean =>
  AGENT.id(a.id) &&
  AGENT.name(a.name) &&
  AGENT.provider(a.provider) &&
  AGENT.status(a.status) &&
  AGENT.prompt(a.prompt) &&
  AGENT.command(a.command) &&
  AGENT.model(a.model) &&
  AGENT.permissions(a.permissions) &&
  AGENT.cwd(a.cwd) &&
  AGENT.worktree(a.worktree) &&
  AGENT.branch(a.branch) &&
  AGENT.baseRef(a.baseRef) &&
  AGENT.pid(a.pid) &&
  AGENT.session(a.session) &&
  AGENT.providerSessionId(a.providerSessionId) &&
  AGENT.result(a.result) &&
  AGENT.error(a.error) &&
  AGENT.exitCode(a.exitCode) &&
  AGENT.costUsd(a.costUsd) &&
  AGENT.inputTokens(a.inputTokens) &&
  AGENT.outputTokens(a.outputTokens) &&
  AGENT.mode(a.mode) &&
  AGENT.initiativeId(a.initiativeId) &&
  AGENT.taskId(a.taskId) &&
  AGENT.phaseId(a.phaseId) &&
  AGENT.createdAt(a.createdAt) &&
  AGENT.updatedAt(a.updatedAt) &&
  AGENT.lastActivityAt(a.lastActivityAt) &&
  AGENT.parentId(a.parentId) &&
  AGENT.uncommitted(a.uncommitted) &&
  AGENT.retryAt(a.retryAt) &&
  AGENT.attempt(a.attempt) &&
  AGENT.budgetUsd(a.budgetUsd) &&
  AGENT.accountId(a.accountId) &&
  AGENT.pendingPermissions(a.pendingPermissions);

/** The agent with exactly its fields, or why not. */
export function readAgent(v: unknown, at: string): Agent | string {
  if (!isObject(v)) return `${at}: expected an object`;
  const a = copy(v);
  if (!fits(a)) return `${at}.${FLAT.find(([key, rule]) => !rule(v[key]))?.[0]}: invalid value`;
  if (a.questions !== null) {
    const qs = questions(a.questions, `${at}.questions`);
    if (typeof qs === "string") return qs;
    a.questions = qs;
  }
  if (a.failure !== null) {
    const f = failure(a.failure, `${at}.failure`);
    if (typeof f === "string") return f;
    a.failure = f;
  }
  return a as Agent;
}

/** `{agents}`: every agent. */
export const AgentsReply = check((v) => {
  if (!isObject(v)) return "expected an object";
  if (!Array.isArray(v.agents)) return "agents: expected an array";
  const agents: Agent[] = new Array(v.agents.length);
  for (let i = 0; i < v.agents.length; i++) {
    const a = readAgent(v.agents[i], `agents.${i}`);
    if (typeof a === "string") return a;
    agents[i] = a;
  }
  return { agents };
});
