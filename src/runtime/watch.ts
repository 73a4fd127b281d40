// Picks the folder watcher of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { watchDir } from "#runtime/watch.ts";
export type { DirEvent, DirWatcher } from "./contract.ts";
