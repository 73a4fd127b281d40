import type { ModePromptResponse, ModeRunRequest } from "../protocol/api-work.ts";
import type { Agent } from "../protocol/entities.ts";
import type { Decision } from "../protocol/proposals.ts";
import type { AgentMode } from "../protocol/work.ts";
import type { TroupeClient } from "./client.ts";
import { request } from "./http.ts";

const enc = encodeURIComponent;

/** Starts an agent of `mode` on an initiative (discuss, plan, refine) or a phase (detail). */
export async function runMode(client: TroupeClient, mode: Exclude<AgentMode, "execute">, ref: string, req: ModeRunRequest): Promise<Agent> {
  const { ModeRunResponseSchema } = await import("../protocol/api-work.ts");
  const resource = mode === "detail" ? "phases" : "initiatives";
  return (await request(client.opts, "POST", `/v1/${resource}/${enc(ref)}/${mode}`, ModeRunResponseSchema, req)).agent;
}

/** The decisions discuss agents recorded for an initiative. */
export async function decisions(client: TroupeClient, initiativeRef: string): Promise<Decision[]> {
  const { DecisionsResponseSchema } = await import("../protocol/proposals.ts");
  return (await request(client.opts, "GET", `/v1/initiatives/${enc(initiativeRef)}/decisions`, DecisionsResponseSchema)).decisions;
}

/** What an agent of `mode` on `ref` would be told (a placeholder target without `ref`). */
export async function modePrompt(client: TroupeClient, mode: AgentMode, q: { ref?: string; provider?: string }): Promise<ModePromptResponse> {
  const { ModePromptResponseSchema } = await import("../protocol/api-work.ts");
  const query = new URLSearchParams();
  if (q.ref !== undefined) query.set("ref", q.ref);
  if (q.provider !== undefined) query.set("provider", q.provider);
  const qs = query.size ? `?${query}` : "";
  return request(client.opts, "GET", `/v1/prompts/${enc(mode)}${qs}`, ModePromptResponseSchema);
}
