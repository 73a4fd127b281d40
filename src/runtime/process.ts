// Picks the process adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts); sleep is portable.
import { processRuntime } from "#runtime/process.ts";
import type { RuntimeInfo } from "./contract.ts";

/** The runtime running this troupe, and its version. */
export const runtime: RuntimeInfo = processRuntime.info;
export const which = (bin: string, PATH: string): string | null => processRuntime.which(bin, PATH);
export const gc = (): void => processRuntime.gc();
export const gcYoung = (): void => processRuntime.gcYoung();
export const shrink = (): void => processRuntime.shrink();
export const selfCommand = (): string[] => processRuntime.selfCommand();
export const reclaimStdin = (): void => processRuntime.reclaimStdin();
export const quietEnv = (): Record<string, string> => processRuntime.quietEnv();
/** What the dashboard starts itself again with (src/self.ts restartQuiet): quiet while idle, and a cheaper start. */
export const dashboardEnv = (): Record<string, string> => ({ ...processRuntime.quietEnv(), ...processRuntime.startEnv() });
export const exec = (argv: string[], env: Record<string, string>): boolean => processRuntime.exec(argv, env);

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
