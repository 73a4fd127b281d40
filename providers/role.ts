import type { CommandInput, Provider, ProviderCommand } from "./types.ts";

/** A profile's instructions placed before the prompt, for CLIs without a system prompt of their own. */
function instructionsInPrompt(input: CommandInput): CommandInput {
  const { instructions, ...rest } = input;
  if (!instructions) return rest;
  return { ...rest, prompt: `${instructions}\n\n---\n\n${input.prompt}` };
}

/** The provider's spawn command with a profile's instructions where that CLI takes them. */
export function buildWithRole(p: Provider, input: CommandInput): ProviderCommand {
  return p.buildSpawn(p.takesSystemPrompt ? input : instructionsInPrompt(input));
}
