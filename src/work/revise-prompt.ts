import type { WorkItem } from "./refs.ts";

/**
 * What a proposing agent is told when the person sends a proposal back (`troupe reject --revise`).
 * Its mode prompt (src/prompts/) already says where proposals go and how to end the run; this
 * only says what to change.
 */
export function revisePrompt(item: WorkItem, reason: string): string {
  const what =
    item.kind === "initiative"
      ? "your revised goal for the initiative"
      : `your proposed ${item.kind} '${item.rec.slug}' (${item.rec.title})`;
  const redo =
    item.kind === "initiative"
      ? "Write the goal again to .troupe/output/initiative.md"
      : `Write your proposal again to .troupe/output/${item.kind === "phase" ? "phases" : "tasks"}/: a file with the same slug replaces it, and a rejected ${item.kind} you leave out is dropped`;
  return `The person rejected ${what}.\n\nTheir reason:\n${reason}\n\n${redo}, then end with troupe signal done as before.`;
}
