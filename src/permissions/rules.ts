import type { PermissionKind } from "../protocol/permission.ts";

/**
 * STAND-IN until perm-core's src/permissions/rules.ts merges (same signatures): the dashboard
 * needs only `kindOf` and `suggestRule`. The merge takes perm-core's file whole.
 */

const FILE_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write", "MultiEdit", "Read", "NotebookEdit"]);

export function kindOf(toolName: string): PermissionKind {
  if (toolName === "AskUserQuestion") return "question";
  if (toolName === "ExitPlanMode") return "plan";
  return "tool";
}

export function suggestRule(toolName: string, input: Record<string, unknown>, cwd: string | null = null): string {
  const s = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  let subject = toolName === "Bash" ? s(input.command) : FILE_TOOLS.has(toolName) ? (s(input.file_path) ?? s(input.notebook_path)) : undefined;
  if (subject && cwd && subject.startsWith(`${cwd}/`)) subject = subject.slice(cwd.length + 1);
  if (subject !== undefined && !subject.includes("\n") && !(toolName === "Bash" && subject.includes("*"))) return `${toolName}(${subject})`;
  return toolName;
}
