// Picks the checkpoint worker's adapter of the running runtime (`#runtime/`: package.json "imports"; see contract.ts).
export { startCheckpointer } from "#runtime/checkpointer.ts";
export type { Checkpointer, CheckpointResult } from "./contract.ts";
