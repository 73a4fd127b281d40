import { z } from "zod";
import { ENDPOINTS, loadSchema, type Endpoint } from "../protocol/api/index.ts";

/** A path parameter as a tool argument: a non-empty string, described as the table describes it. */
function param(e: Endpoint, name: string): z.ZodString {
  return z.string().min(1).describe(e.params?.[name] ?? name);
}

/** A query parameter as a tool argument (whole numbers stay whole numbers). */
function queryArg(e: Endpoint, name: string) {
  const f = e.query?.[name];
  if (f?.kind !== "int") throw new Error(`${e.path}: ?${name} is not a whole number`);
  return z.number().int().nonnegative().optional();
}

/**
 * The tools' input fields that mirror an endpoint, read from the API table: the same schemas the
 * daemon validates with, so a tool never accepts what its endpoint refuses, nor the reverse.
 * Descriptions are the model's (the tools speak to it); names are the tools' own where they
 * always were (`agent` for an agent's `:ref`, `conversationId` for a conversation's `:id`).
 */
export async function endpointShapes() {
  const [spawn, send, ask, answer] = await Promise.all([
    loadSchema(ENDPOINTS.spawn.body),
    loadSchema(ENDPOINTS.send.body),
    loadSchema(ENDPOINTS.ask.body),
    loadSchema(ENDPOINTS.answer.body),
  ]);
  const s = spawn.shape;
  return {
    /** spawn_agent, handoff, assign: what a worker is started with. */
    worker: {
      profile: s.profile.describe("an agent profile (troupe profile ls): its provider, model, permissions, tools and instructions; the other fields win over it"),
      provider: s.provider.describe("claude, codex, gemini, ... (default: your own CLI, else claude)"),
      model: s.model.describe("the provider's model"),
      command: s.command.describe("a shell command to run as the agent instead of a CLI (generic provider; the prompt is in $TROUPE_PROMPT)"),
      name: s.name.describe("a name (lowercase letters, digits, dashes; default: an unused adjective-animal)"),
      worktree: s.worktree.describe("false: run in the workspace itself (default: its own git worktree)"),
      baseRef: s.baseRef.describe("the git ref its worktree starts from (default: HEAD)"),
    },
    /** get_agent, stop_agent, wait_agent. */
    agent: param(ENDPOINTS.agent, "ref"),
    /** send_message. */
    message: send.shape,
    /** read_inbox: the inbox's `after`. */
    after: queryArg(ENDPOINTS.inbox, "after").describe("the seq of the last message you read"),
    /** ask: an agent or the person (the tool waits for the answer itself). */
    ask: { to: ask.shape.to, user: ask.shape.user, question: ask.shape.question },
    /** answer. */
    answer: { conversationId: param(ENDPOINTS.answer, "id"), answer: answer.shape.answer },
  };
}

export type EndpointShapes = Awaited<ReturnType<typeof endpointShapes>>;
