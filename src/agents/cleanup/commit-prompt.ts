/** What an agent that ended `done` with uncommitted changes is told, once. */
export function commitPrompt(troupe: string, paths: string[]): string {
  return [
    "Your run ended with uncommitted changes in your worktree. Commit exactly these paths on your branch",
    "(or, for a file that should not be kept, remove it), then end again as before:",
    "",
    ...paths.map((p) => `- ${p}`),
    "",
    `Then run: ${troupe} signal done --result "<what you did>"`,
  ].join("\n");
}
