/**
 * The real Cline CLI gets troupe's MCP server as troupe configures it (a settings file of its own
 * through CLINE_MCP_SETTINGS_PATH: over ACP it ignores the servers of `session/new`), and the
 * server acts with the agent's identity: the model's first turn calls troupe's spawn_agent tool
 * (troupe__spawn_agent in Cline, beside a spawn_agent of its own), and the agent it starts is the
 * caller's child; the tool's answer reaches the model, which then signals done.
 */
import { expect, test } from "bun:test";
import type { Agent } from "../../src/protocol/entities.ts";
import { contentText, shell, turnIndex, type ChatRequest } from "../../scripts/fake-chat-completions.ts";
import { useChatCliTroupe } from "../support/chat-cli-troupe.ts";
import { waitFor } from "../support/sandbox.ts";

const spawnKid = { command: "troupe signal done --result kid", prompt: "be a kid", name: "kid", worktree: false };
/** What the MCP tool answered, as the model saw it. */
let toolAnswer: string | undefined;
const lastToolMessage = (req: ChatRequest) => req.messages.findLast((m) => m.role === "tool");

const t = useChatCliTroupe("cline", (req) => {
  if (turnIndex(req) === 0) {
    const tool = req.tools.find((x) => x.name === "troupe__spawn_agent");
    return tool ? { tool: tool.name, args: spawnKid } : { text: `no troupe__spawn_agent among ${req.tools.map((x) => x.name).join(", ")}` };
  }
  if (turnIndex(req) === 1) {
    toolAnswer = contentText(lastToolMessage(req)?.content);
    return shell(req, `troupe signal done --result "spawned"`);
  }
  return { text: "Done." };
});

test("Cline calls troupe's spawn_agent over MCP as itself: the kid is its child, the answer reaches the model", async () => {
  const sb = await t.sandbox();
  await sb.json(["spawn", "--provider", "cline", "--name", "cln", "--prompt", "Start a kid.", "--no-worktree", "--json"]);
  const parent = await t.ended(sb, "cln");
  expect(parent, JSON.stringify(parent)).toMatchObject({ status: "done", result: "spawned" });
  const kid = await waitFor("the kid cline spawned through MCP", async () => (await sb.json<Agent[]>(["ls", "--json"])).find((a) => a.name === "kid" && a.status === "done"), 90_000);
  expect(kid.parentId).toBe(parent.id);
  expect(toolAnswer).toContain("kid");
}, 600_000);
