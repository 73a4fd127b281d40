import type { PlanEntry } from "../src/protocol/output.ts";
import { obj, str } from "./json-line.ts";

const STATUSES = ["pending", "in_progress", "completed"] as const;
const PRIORITIES = ["high", "medium", "low"] as const;

/**
 * An agent's plan as its CLI says it: the entries of an ACP `plan` update, or the list a to-do
 * tool is called with (opencode's and Kilo's todowrite: `todos`, each with its `content` and
 * `status`), which is the whole plan each time. (Claude Code 2.1.332 offers no TodoWrite headless:
 * "TodoWrite is disabled for this session".) An entry with no status
 * troupe knows is left out. Pure, never throws on what the JSON holds.
 */
export function planEntries(entries: unknown): PlanEntry[] {
  return (Array.isArray(entries) ? entries : []).flatMap((e) => {
    const entry = obj(e) ?? {};
    const status = STATUSES.find((s) => s === entry.status);
    if (!status) return [];
    const priority = PRIORITIES.find((p) => p === entry.priority);
    return [{ content: str(entry.content) ?? "", status, ...(priority && { priority }) }];
  });
}

/** The plan a to-do tool's input writes, or undefined for any other call (one without a `todos` list). */
export function todoToolPlan(input: unknown): PlanEntry[] | undefined {
  const todos = obj(input)?.todos;
  return Array.isArray(todos) ? planEntries(todos) : undefined;
}
