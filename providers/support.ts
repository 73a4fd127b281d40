import type { PermissionMode, Provider } from "./types.ts";

/** What a provider can do under troupe, as `troupe providers` shows it. */
export interface ProviderSupport {
  /** The CLI version troupe was last proven with (fixtures recorded, e2e test run); null: never run here. */
  provenWith: string | null;
  /** A run can be resumed in the same session (answers, messages, retries). */
  resume: boolean;
  /** The permission modes it honours headless. */
  permissions: readonly PermissionMode[];
  /** `--permissions ask`: each tool call its rules do not decide goes to the person. */
  ask: boolean;
  /** troupe's MCP server (handoff, assign, signal as tools) is configured for it: by its own config, or in its ACP session (`session/new`). */
  mcp: boolean;
  /** Its output says what a run cost in dollars (else tokens at most). */
  cost: boolean;
  /** How troupe drives it: over the Agent Client Protocol (under its runner, `troupe acp-run`) or headless. */
  transport: "acp" | "headless";
  /** A message or a peer's question reaches its running session: while it works (Claude's stream), as its next prompt (ACP), or not at all (it reads them with troupe listen). */
  liveInput: "mid-turn" | "next-turn" | "none";
  /** Its plan (entries and their status) is shown and kept on the agent: from ACP plan updates or its to-do tool, proven by its e2e. */
  plan: boolean;
  /** The CLI an ACP adapter embeds, and that CLI's version (the detected version is the adapter's); null: the executable is the CLI. */
  adapterOf: { cli: string; version: string } | null;
}

export function supportOf(p: Provider): ProviderSupport {
  return {
    provenWith: p.provenWith ?? null,
    resume: p.buildResume !== null,
    permissions: p.permissionModes,
    ask: p.permissionModes.includes("ask"),
    mcp: p.mcp !== undefined || p.transport === "acp",
    cost: p.reportsCost === true,
    transport: p.transport ?? "headless",
    liveInput: p.liveInput ? (p.transport === "acp" ? "next-turn" : "mid-turn") : "none",
    plan: p.reportsPlan === true,
    adapterOf: p.adapterOf ?? null,
  };
}
