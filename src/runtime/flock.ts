// Picks the lock adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { tryLock } from "#runtime/flock.ts";
