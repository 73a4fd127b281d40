/**
 * How an agent may act without asking, written once (zod-free: the CLI checks its flags with it
 * without loading zod). Headless agents cannot answer a permission prompt, so the default is
 * "skip"; "edits" lets them edit files but asks for the rest (and so fails tools that need more),
 * "plan" is read-only; "ask" routes every tool call the rules do not decide to the person (a
 * permission request; Claude Code only, see src/permissions/).
 */
export const PERMISSION_MODES = ["skip", "edits", "plan", "ask"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

export function isPermissionMode(value: string): value is PermissionMode {
  return (PERMISSION_MODES as readonly string[]).includes(value);
}

/** "skip, edits, plan or ask", for messages and usage. */
export const PERMISSION_MODE_LIST = `${PERMISSION_MODES.slice(0, -1).join(", ")} or ${PERMISSION_MODES.at(-1)}`;
