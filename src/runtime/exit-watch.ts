// Picks the exit watcher's adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { startExitWatcher } from "#runtime/exit-watch.ts";
export type { ExitWatcher } from "./contract.ts";
