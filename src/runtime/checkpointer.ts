// The one line that picks the checkpoint worker's adapter (see contract.ts).
export { startCheckpointer } from "./bun/checkpointer.ts";
export type { Checkpointer, CheckpointResult } from "./contract.ts";
