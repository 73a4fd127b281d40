// The one line that picks the exit watcher's adapter (see contract.ts).
export { startExitWatcher } from "./bun/exit-watch.ts";
export type { ExitWatch, ExitWatcher } from "./contract.ts";
