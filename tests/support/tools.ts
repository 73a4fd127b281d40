/**
 * Whether a tool a suite needs is on this machine. Outside CI a missing one skips the suites that
 * need it (a developer without sshd still runs the rest); under CI (`CI=true`: `.ci/run`, which
 * installs each of these) it fails the run instead, so a CI run can never pass by skipping them.
 */
export function needed(tool: string, found: boolean): boolean {
  if (!found && process.env.CI === "true") throw new Error(`${tool} is missing: .ci/run installs it, and CI does not skip the suites that need it`);
  return found;
}
