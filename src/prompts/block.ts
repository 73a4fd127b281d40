import type { ModePromptContext } from "./context.ts";

/**
 * One named piece of a mode prompt. Its id is stable: tests check a mode's prompt by the ids it
 * carries, and `troupe prompt --json` lists them; its text is rendered for one run.
 */
export interface Block {
  readonly id: string;
  text(c: ModePromptContext): string;
}

/** A place in a mode's list filled by one of several blocks, picked by the run (its provider's capabilities). */
export interface Choice {
  readonly choose: (c: ModePromptContext) => Block;
}

export type Slot = Block | Choice;

/** A block as one run's prompt holds it. */
export interface RenderedBlock {
  id: string;
  text: string;
}

export const block = (id: string, text: (c: ModePromptContext) => string): Block => ({ id, text });

export function render(slots: readonly Slot[], c: ModePromptContext): RenderedBlock[] {
  return slots.map((s) => ("choose" in s ? s.choose(c) : s)).map((b) => ({ id: b.id, text: b.text(c).trim() }));
}

/** The prompt itself: its blocks in order, a blank line between them. */
export function joinBlocks(blocks: readonly RenderedBlock[]): string {
  return `${blocks.map((b) => b.text).join("\n\n")}\n`;
}
