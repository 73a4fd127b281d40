/**
 * What a task's agent is told when its branch conflicts with the initiative branch: merge that
 * branch into its own and resolve, once. Its execute prompt already says how to commit and end
 * the run; this says what is different now.
 */
export function resolvePrompt(initiativeBranch: string, taskBranch: string, files: string[]): string {
  return [
    `Your branch ${taskBranch} could not be merged into ${initiativeBranch}: other tasks merged there first, and these files conflict:`,
    "",
    ...files.map((f) => `- ${f}`),
    "",
    `Run \`git merge ${initiativeBranch}\` in your worktree, resolve every conflict keeping both sides' intent (read what the other tasks did first), run the tests, and commit the merge. Never rebase, reset or force anything: no commit of either side may be lost.`,
    "When the merge is committed, end with troupe signal done as before; if you cannot resolve it, signal an error saying why.",
  ].join("\n");
}
